dist_man_MANS += man/touchtape.1 man/touchtape-timeline.5 \
	man/touchtape-print.1 man/touchtape-validate.1
