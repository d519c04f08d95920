# Bash completion (completion/touchtape): commands and options read from
# touchtape's --help at completion time; installed where bash-completion
# loads it on demand (configure's --with-bash-completion-dir).
dist_bashcompletion_DATA = completion/touchtape
