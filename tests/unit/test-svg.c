/*
 * Unit tests of the SVG writer (common/svg.c) and the pieces of tl-html's
 * pages that can be checked without a browser: log and linear ticks, label
 * placement, text fitting, escaping of names, the mark count, the name
 * cutting of report_name.c and the table cells of html.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include "display.h"
#include "html.h"
#include "outbuf.h"
#include "report_name.h"
#include "svg.h"
#include "tap.h"

/* An outbuf on a temporary file, read back as a string. */
static FILE *tmp;

static struct outbuf *mem_open(void)
{
	tmp = tmpfile();
	if (!tmp) {
		perror("tmpfile");
		exit(1);
	}
	return outbuf_open_fd(fileno(tmp));
}

static char *mem_close(struct outbuf *ob)
{
	long n;
	char *s;

	outbuf_close(ob);
	n = ftell(tmp) >= 0 ? (long)lseek(fileno(tmp), 0, SEEK_END) : 0;
	s = calloc((size_t)n + 1, 1);
	if (!s)
		exit(1);
	rewind(tmp);
	if (n && fread(s, 1, (size_t)n, tmp) != (size_t)n)
		exit(1);
	fclose(tmp);
	return s;
}

static int count(const char *s, const char *what)
{
	int n = 0;

	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

static void labels(const struct svg_tick *t, size_t n, char *buf, size_t size, int major_only)
{
	size_t k = 0;

	buf[0] = 0;
	for (size_t i = 0; i < n && k < size; i++)
		if (!major_only || t[i].major)
			k += (size_t)snprintf(buf + k, size - k, "%s%s", k ? " " : "", t[i].label);
}

static void test_log_ticks(void)
{
	struct svg_scale s;
	struct svg_tick t[SVG_MAXTICKS];
	char buf[512];
	size_t n, minor = 0;

	svg_scale_log(&s, 0.01, 1000, 0, 500);
	n = svg_ticks(&s, 6, t, SVG_MAXTICKS);
	labels(t, n, buf, sizeof(buf), 1);
	tap_str(buf, "0.01 0.1 1 10 100 1000", "log ticks: every decade labelled, plain numbers");
	for (size_t i = 0; i < n; i++)
		minor += !t[i].major;
	tap_ok(n == 46 && minor == 40, "log ticks: 2..9 minor ticks in each of 5 decades");
	tap_ok(fabs(t[0].pos - 0) < 1e-9 && fabs(t[n - 1].pos - 500) < 1e-9,
	       "log ticks: the end decades sit on the ends of the range");
	tap_ok(fabs(svg_map(&s, 1) - 200) < 1e-9, "log scale: 1 is 2 of 5 decades along");

	svg_scale_log(&s, 1, 100, 0, 100);
	n = svg_ticks(&s, 6, t, SVG_MAXTICKS);
	labels(t, n, buf, sizeof(buf), 1);
	tap_str(buf, "1 2 5 10 20 50 100", "log ticks over two decades: 2 and 5 labelled too");
	tap_ok(fabs(svg_map(&s, 10) - 50) < 1e-9, "log scale: 10 is half way from 1 to 100");

	svg_scale_log(&s, 1e-6, 1e6, 0, 100);
	n = svg_ticks(&s, 6, t, SVG_MAXTICKS);
	labels(t, n, buf, sizeof(buf), 1);
	tap_str(buf, "1e-06 1e-05 1e-04 0.001 0.01 0.1 1 10 100 1000 10000 1e+05 1e+06",
		"log ticks over 12 decades: exponents beyond 1e-3..1e4, no minor ticks");
	tap_ok(n == 13, "no minor ticks when more than eight decades");

	svg_scale_log(&s, 0, 100, 0, 100);
	tap_ok(svg_ticks(&s, 6, t, SVG_MAXTICKS) == 0, "log ticks: a domain from 0 has none");
	tap_ok(svg_map(&s, -1) == 0, "log scale: v <= 0 maps to the range's start");
}

static void test_nice(void)
{
	double lo = 0.03, hi = 470;

	svg_nice_log(&lo, &hi);
	tap_ok(lo == 0.01 && hi == 1000, "nice log range: widened to whole decades");
	lo = 5, hi = 5;
	svg_nice_log(&lo, &hi);
	tap_ok(lo == 1 && hi == 10, "nice log range of one value: its decade");
	lo = -1, hi = 3;
	svg_nice_log(&lo, &hi);
	tap_ok(lo == 1 && hi == 10, "nice log range from a negative: [1, 10]");
	lo = 0, hi = 7.3;
	svg_nice_linear(&lo, &hi, 5);
	tap_ok(lo == 0 && hi == 8, "nice linear range: 0..7.3 becomes 0..8 (step 2)");
	lo = 3, hi = 3;
	svg_nice_linear(&lo, &hi, 5);
	tap_ok(lo == 0 && hi == 3, "nice linear range of one value starts at 0");
	lo = NAN, hi = 1;
	svg_nice_linear(&lo, &hi, 5);
	tap_ok(lo == 0 && hi == 1, "nice linear range of NaN: [0, 1]");
}

static void test_linear_ticks(void)
{
	struct svg_scale s;
	struct svg_tick t[SVG_MAXTICKS];
	char buf[512];
	size_t n;

	svg_scale_linear(&s, 0, 8, 100, 900);
	n = svg_ticks(&s, 5, t, SVG_MAXTICKS);
	labels(t, n, buf, sizeof(buf), 0);
	tap_str(buf, "0 2 4 6 8", "linear ticks: a 1-2-5 step, integer labels");
	tap_ok(t[2].pos == 500, "linear ticks: positions on the scale");
	svg_scale_linear(&s, 0, 0.45, 0, 100);
	n = svg_ticks(&s, 5, t, SVG_MAXTICKS);
	labels(t, n, buf, sizeof(buf), 0);
	tap_str(buf, "0.0 0.1 0.2 0.3 0.4", "linear ticks: as many decimals as the step needs");
	svg_scale_linear(&s, 0, 0.3, 0, 100);
	n = svg_ticks(&s, 5, t, SVG_MAXTICKS);
	labels(t, n, buf, sizeof(buf), 0);
	tap_str(buf, "0.00 0.05 0.10 0.15 0.20 0.25 0.30", "linear ticks: a step of 0.05");
	svg_scale_linear(&s, 1.6, 9.1, 0, 100);
	n = svg_ticks(&s, 10, t, SVG_MAXTICKS);
	labels(t, n, buf, sizeof(buf), 0);
	tap_str(buf, "2 3 4 5 6 7 8 9", "linear ticks start at the first step inside the domain");
	svg_scale_linear(&s, 0, 3e6, 0, 100);
	n = svg_ticks(&s, 3, t, SVG_MAXTICKS);
	labels(t, n, buf, sizeof(buf), 0);
	tap_str(buf, "0 1e+06 2e+06 3e+06", "linear ticks of millions in exponent form");
}

static void test_labels(void)
{
	struct svg_tick t[SVG_MAXTICKS];
	struct svg_scale s;
	size_t n, step, nm = 0;
	struct svg_tick m[SVG_MAXTICKS];
	int ok = 1;

	/* 13 decades on 200 pixels: labels would collide */
	svg_scale_log(&s, 1e-6, 1e6, 0, 200);
	n = svg_ticks(&s, 6, t, SVG_MAXTICKS);
	for (size_t i = 0; i < n; i++)
		if (t[i].major)
			m[nm++] = t[i];
	step = svg_label_step(m, nm, 11, 6);
	tap_ok(step > 1, "crowded labels are thinned");
	for (size_t i = 0; i + step < nm; i += step) {
		double wa = svg_text_width(m[i].label, strlen(m[i].label), 11, SVG_SANS);
		double wb = svg_text_width(m[i + step].label, strlen(m[i + step].label), 11, SVG_SANS);
		ok &= m[i + step].pos - m[i].pos >= (wa + wb) / 2 + 6;
	}
	tap_ok(ok, "thinned labels leave 6 px between neighbours");
	svg_scale_log(&s, 1e-6, 1e6, 0, 2000);
	n = svg_ticks(&s, 6, t, SVG_MAXTICKS);
	tap_ok(svg_label_step(t, n, 11, 6) == 1, "labels with room are all kept");
}

static void test_text(void)
{
	size_t big = 10u << 20, k;
	char *name = malloc(big);
	const char *e = "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9";

	tap_ok(svg_text_width("iiii", 4, 10, SVG_SANS) < svg_text_width("MMMM", 4, 10, SVG_SANS),
	       "sans widths: i narrower than M");
	tap_ok(fabs(svg_text_width("abcd", 4, 10, SVG_MONO) - 24) < 1e-9,
	       "monospace: 0.6 em a character");
	tap_ok(fabs(svg_text_width("\x1b", 1, 10, SVG_MONO) - 24) < 1e-9,
	       "a control character is as wide as its \\xHH form");
	tap_ok(svg_text_fit("short", 5, 500, 10, SVG_MONO) == 5, "text that fits is kept whole");
	k = svg_text_fit(e, 10, 6 * 3 + 6, 10, SVG_MONO);
	tap_ok(k == 6, "a cut leaves room for the ellipsis and ends on a character");
	memset(name, 'A', big);
	k = svg_text_fit(name, big, 300, 11, SVG_MONO);
	tap_ok(k > 0 && k < 50, "a 10 MB name is cut to what 300 px hold");
	free(name);
}

static void test_escaping(void)
{
	struct outbuf *ob = mem_open();
	struct svg g;
	char *s, *longname;
	size_t n = 5000;

	longname = malloc(n + 1);
	memset(longname, 'x', n);
	memcpy(longname, "void f<", 7);
	longname[n] = 0;
	svg_begin(&g, ob, 100, 50, "t<\"", "a & b");
	svg_text(&g, 1, 2, SVG_START, NULL, "<a&b \"q\" 'x'>", 13);
	svg_text(&g, 1, 2, SVG_START, NULL, "\x1b]0;owned\x07\x1b[2J", 14);
	svg_rect_open(&g, 0, 0, 10, 10, "#fff");
	svg_tip(&g, "std::vector<int> & \"x\"", 22);
	svg_tipf(&g, "\n%d %%", 5);
	svg_close(&g);
	svg_circle_open(&g, 5, 5, 2, "#000");
	svg_close(&g);
	svg_text_fitted(&g, 0, 0, SVG_START, "name", SVG_MONO, 11, 200, longname, n);
	svg_end(&g);
	s = mem_close(ob);
	tap_ok(strstr(s, "data-chart=\"t&lt;&quot;\"") && strstr(s, "aria-label=\"a &amp; b\""),
	       "attribute values escaped");
	tap_ok(strstr(s, ">&lt;a&amp;b &quot;q&quot; &#39;x&#39;&gt;</text>") != NULL,
	       "text: < & \" ' > as references");
	tap_ok(strstr(s, ">\\x1b]0;owned\\x07\\x1b[2J</text>") != NULL,
	       "terminal escapes shown as \\xHH");
	tap_ok(strstr(s, "<title>std::vector&lt;int&gt; &amp; &quot;x&quot;\n5 %</title>") != NULL,
	       "tooltip escaped, its own newline kept");
	tap_ok(strstr(s, "<g data-marks=\"2\"></g></svg>") != NULL, "two marks counted");
	tap_ok(strstr(s, "void f&lt;xxx") && strstr(s, "\xe2\x80\xa6<title>void f&lt;") &&
	       strstr(s, "(5000 bytes)</title>"), "a long template name: cut, whole in the tooltip");
	tap_ok(count(s, "<") - count(s, "</") - count(s, "/>") == count(s, "</"),
	       "every element closed");
	free(s);
	free(longname);
}

static void test_num(void)
{
	struct outbuf *ob = mem_open();
	char *s;

	svg_num(ob, 12.5);
	outbuf_putc(ob, ' ');
	svg_num(ob, 3);
	outbuf_putc(ob, ' ');
	svg_num(ob, -0.001);
	outbuf_putc(ob, ' ');
	svg_num(ob, -2.256);
	outbuf_putc(ob, ' ');
	svg_num(ob, NAN);
	s = mem_close(ob);
	tap_str(s, "12.5 3 0 -2.26 0", "coordinates: two decimals at most, no -0, no NaN");
	free(s);
}

static void cut_case(const char *const *names, size_t k, size_t min_chars, const char *want,
		     const char *what)
{
	struct report_names rn = { 0 };
	char buf[1024];
	size_t len = 0;

	for (size_t i = 0; i < k; i++)
		report_names_add(&rn, names[i], strlen(names[i]));
	report_names_cut(&rn, min_chars);
	buf[0] = 0;
	for (size_t i = 0; i < k; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%.*s%s", i ? "|" : "",
					(int)rn.cut[i], rn.s[i], rn.cut[i] < rn.n[i] ? "~" : "");
	tap_str(buf, want, what);
	report_names_release(&rn);
}

static void test_names(void)
{
	static const char *const a[] = {
		"kernel_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa_one<int, float, double>",
		"kernel_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa_two<int, float, double>",
		"kernel_b"
	};
	static const char *const b[] = { "aten::add", "aten::add_", "aten::add" };
	static const char *const c[] = { "_ZN5aiter6kernelEv", "plain" };

	cut_case(a, 3, 10, "kernel_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa_o~|kernel_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa_t~|kernel_b",
		 "names cut where they still differ");
	cut_case(b, 3, 4, "aten::add|aten::add_|aten::add",
		 "a name that is a prefix of another, and equal names, are shown whole");
	cut_case(c, 2, 120, "aiter::kernel()|plain", "mangled names demangled");
}

static void test_cells(void)
{
	struct outbuf *ob = mem_open();
	char *s, *big = malloc(100000);

	memset(big, 'y', 100000);
	html_td_text(ob, big, 100000, HTML_TD_NAME);
	html_td_num(ob, 1.5, 3);
	html_td_num(ob, NAN, 3);
	html_td_num(ob, INFINITY, 1);
	s = mem_close(ob);
	tap_ok(strlen(s) < HTML_CELL_MAX + 200 && strstr(s, "\xe2\x80\xa6 (100000 bytes)</td>"),
	       "a 100 kB cell is cut and says its length");
	tap_ok(strstr(s, "<td class=\"n\" data-v=\"1.5\">1.500</td><td class=\"n\"></td>") != NULL,
	       "numeric cells carry their value; NaN is empty");
	tap_ok(strstr(s, "data-v=\"1e308\">inf</td>") != NULL, "infinity sorts last, shows inf");
	free(s);
	free(big);
}

int main(void)
{
	test_log_ticks();
	test_nice();
	test_linear_ticks();
	test_labels();
	test_text();
	test_escaping();
	test_num();
	test_names();
	test_cells();
	return tap_done();
}
