# The file format's page; each command's page is listed by its folder.
dist_man_MANS += man/touchtape-timeline.5
