# samples: filled in by its issue
