# replay: filled in by its issue
