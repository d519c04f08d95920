/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <math.h>

#include "plot-svg.h"

double
plot_map(const struct plot_scale *s, double v)
{
	if (s->v1 == s->v0)
		return (s->p0 + s->p1) / 2;
	return s->p0 + (v - s->v0) / (s->v1 - s->v0) * (s->p1 - s->p0);
}

/* 1, 2 or 5 times a power of ten: some @want ticks over @span. */
static double
tick_step(double span, int want)
{
	double raw = span / want;
	double mag = pow(10, floor(log10(raw)));
	double f = raw / mag;

	return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * mag;
}

void
plot_ticks(FILE *out, const char *axis, const struct plot_scale *s, bool vertical, double at, bool right, int want)
{
	double lo = fmin(s->v0, s->v1), hi = fmax(s->v0, s->v1);
	double step = hi > lo ? tick_step(hi - lo, want) : 1;
	int decimals = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);

	for (double v = ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step) {
		double p = plot_map(s, v);
		double d = right ? 5 : -5;
		if (vertical)
			fprintf(out, "<line class=\"tickmark\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
				"<text class=\"tick\" data-axis=\"%s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%.*f</text>\n",
				at, p, at + d, p, axis, at + 1.6 * d, p + 4, right ? "start" : "end", decimals, fabs(v) < step / 2 ? 0.0 : v);
		else
			fprintf(out, "<line class=\"tickmark\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
				"<text class=\"tick\" data-axis=\"%s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.*f</text>\n",
				p, at, p, at + 5, axis, p, at + 18, decimals, fabs(v) < step / 2 ? 0.0 : v);
	}
}

void
plot_axis_title(FILE *out, double x, double y, bool vertical, const char *text)
{
	if (vertical)
		fprintf(out, "<text class=\"axis-title\" transform=\"translate(%.1f,%.1f) rotate(-90)\" "
			"text-anchor=\"middle\">%s</text>\n", x, y, text);
	else
		fprintf(out, "<text class=\"axis-title\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
			x, y, text);
}

size_t
plot_chars(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

size_t
plot_chars_bytes(const char *s, size_t max_chars)
{
	size_t n = 0, i = 0;

	for (; s[i]; i++) {
		if (((unsigned char)s[i] & 0xc0) != 0x80 && n++ == max_chars)
			break;
	}
	return i;
}

void
plot_xml_text(FILE *out, const char *s, size_t max_chars)
{
	bool cut = plot_chars(s) > max_chars;
	size_t n = 0;

	/* Room for the ellipsis when cut; a character is cut whole. */
	for (; *s; s++) {
		bool starts = ((unsigned char)*s & 0xc0) != 0x80;
		if (starts && cut && ++n > max_chars - 1)
			break;
		switch (*s) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*s, out); break;
		}
	}
	if (cut)
		fputs("\u2026", out);
}
