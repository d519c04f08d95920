/* SPDX-License-Identifier: MIT */
/*
 * The drawing primitives of analyze --plot's SVG (plot-svg.c): linear
 * scales, tick marks with labels, axis titles, escaped text. What the
 * picture shows is model-plot.c's and plot-timeline.c's; these know only
 * pixels. Private to analyze/.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* A linear map from values (mm, seconds, units) to SVG pixels. */
struct plot_scale {
	double p0, p1;
	double v0, v1;
};

double plot_map(const struct plot_scale *s, double v);
/* Tick marks and labels along a scale: below a horizontal axis at @at,
 * or left (right when @right) of a vertical one; about @want of them,
 * each <text class="tick" data-axis="@axis">. */
void plot_ticks(FILE *out, const char *axis, const struct plot_scale *s, bool vertical, double at, bool right,
		int want);
void plot_axis_title(FILE *out, double x, double y, bool vertical, const char *text);
/* @s with &, <, >, " escaped; at most @max_chars characters of it (an
 * ellipsis ends what was cut). */
void plot_xml_text(FILE *out, const char *s, size_t max_chars);
/* Characters, not bytes: UTF-8 continuation bytes do not count. */
size_t plot_chars(const char *s);
/* The bytes of @s's first @max_chars characters (all of @s if shorter). */
size_t plot_chars_bytes(const char *s, size_t max_chars);
