# record: filled in by its issue
