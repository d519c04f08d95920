dist_man_MANS += man/touchtape.1 man/touchtape-timeline.5
