#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "display.h"
#include "html.h"
#include "outbuf.h"
#include "banned.h"

/*
 * Arial's metrics (Liberation Sans on Linux, Helvetica on a Mac) are the
 * ones svg.c measures text with; the monospace fonts are all 0.6 em.
 */
static const char css[] =
	"body{margin:0;background:#f4f5f7;color:#1f2328;"
	"font:14px/1.45 Arial,\"Liberation Sans\",Helvetica,sans-serif}\n"
	"main{max-width:1080px;margin:0 auto;padding:8px 20px 40px}\n"
	"h1{font-size:21px;margin:18px 0 4px;word-break:break-all}\n"
	"h2{font-size:16px;margin:0 0 8px}\n"
	"p{margin:6px 0}\n"
	"nav{margin:10px 0;font-size:13px}nav a{margin-right:14px;color:#0b5cad;"
	"text-decoration:none}\n"
	"section{background:#fff;border:1px solid #dfe2e6;border-radius:6px;"
	"padding:12px 16px;margin:14px 0}\n"
	".facts{color:#3d444d;font-size:13.5px}.facts b{color:#1f2328}\n"
	".verdict{background:#fff7e0;border-left:4px solid #e8a317;padding:8px 12px;"
	"margin:10px 0}\n"
	".note{color:#5c636b;font-size:12.5px}\n"
	"svg{display:block;max-width:100%;height:auto;margin:6px 0}\n"
	"svg text{font:11px Arial,\"Liberation Sans\",Helvetica,sans-serif;fill:#2f353b}\n"
	"svg .name{font-family:\"Liberation Mono\",\"DejaVu Sans Mono\",Menlo,Consolas,"
	"monospace}\n"
	"svg .axis-title{font-size:12px;fill:#4a5159}svg .tick{fill:#5c636b}\n"
	"svg .in{fill:#fff}svg .roof{font-size:10.5px;fill:#59606a}\n"
	".grid{stroke:#eceef1}.grid.minor{stroke:#f5f6f8}.axis{stroke:#8a9099}\n"
	".roofline{stroke:#59606a;stroke-width:1.5;fill:none}\n"
	".mark:hover{opacity:.75}circle.mark{fill-opacity:.85;stroke:#fff;stroke-width:1}\n"
	".legend{font-size:12.5px;margin:2px 0 6px}.legend span{margin-right:14px;"
	"white-space:nowrap}.legend i{display:inline-block;width:10px;height:10px;"
	"border-radius:2px;margin-right:5px;vertical-align:-1px}\n"
	"details{margin:8px 0}summary{cursor:pointer;color:#0b5cad;font-size:13px}\n"
	".scroll{overflow-x:auto}\n"
	"table{border-collapse:collapse;font-size:12.5px;margin:6px 0}\n"
	"th,td{padding:3px 8px;border-bottom:1px solid #eceef1;text-align:left;"
	"vertical-align:top}\n"
	"th{background:#f7f8fa;font-weight:600;white-space:nowrap}\n"
	"th.n,td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
	"td.name{font-family:\"Liberation Mono\",\"DejaVu Sans Mono\",Menlo,Consolas,"
	"monospace;font-size:12px;word-break:break-all;max-width:560px}\n"
	"th.sortable{cursor:pointer}th.sortable:hover{background:#eef0f3}\n"
	"footer{color:#6a717a;font-size:12px;margin-top:18px}\n";

/*
 * The only script: progressive enhancement.  Sorting swaps rows in place;
 * the check compares the marks the browser parsed with the writer's count.
 */
static const char script[] =
	"(function(){\n"
	"var out=[],ok=1,svgs=document.querySelectorAll('svg[data-chart]');\n"
	"for(var i=0;i<svgs.length;i++){var s=svgs[i],n=s.querySelectorAll('.mark').length,"
	"g=s.querySelector('g[data-marks]');\n"
	"if(!g||+g.getAttribute('data-marks')!==n){ok=0;console.error('tl-html: chart '+"
	"s.getAttribute('data-chart')+' has '+n+' marks');}\n"
	"out.push(s.getAttribute('data-chart')+'='+n);}\n"
	"var c=document.getElementById('tl-check');\n"
	"c.setAttribute('data-counts',out.join(' '));c.setAttribute('data-ok',ok?'1':'0');\n"
	"var res=window.performance&&performance.getEntriesByType?"
	"performance.getEntriesByType('resource').length:0;\n"
	"c.setAttribute('data-resources',String(res));\n"
	"function key(td,num){if(!td)return num?-Infinity:'';var v=td.getAttribute('data-v');\n"
	"if(num)return v===null||v===''?-Infinity:+v;return td.textContent;}\n"
	"var ths=document.querySelectorAll('table.sortable th');\n"
	"for(var j=0;j<ths.length;j++)(function(th){th.className+=' sortable';"
	"th.title='click to sort';\n"
	"th.addEventListener('click',function(){var tb=th.closest('table').tBodies[0],"
	"col=th.cellIndex,num=/\\bn\\b/.test(th.className),"
	"desc=th.getAttribute('data-dir')!=='desc';\n"
	"var rows=Array.prototype.slice.call(tb.rows);\n"
	"rows.sort(function(a,b){var x=key(a.cells[col],num),y=key(b.cells[col],num),"
	"r=x<y?-1:x>y?1:0;return desc?-r:r;});\n"
	"th.setAttribute('data-dir',desc?'desc':'asc');"
	"for(var k=0;k<rows.length;k++)tb.appendChild(rows[k]);});})(ths[j]);\n"
	"})();\n";

void html_text(struct outbuf *ob, const char *s, size_t n)
{
	display_escape(ob, s, n, DISPLAY_HTML);
}

void html_str(struct outbuf *ob, const char *s)
{
	if (s)
		html_text(ob, s, strlen(s));
}

void html_printf(struct outbuf *ob, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	html_text(ob, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

void html_begin(struct outbuf *ob, const char *title)
{
	outbuf_puts(ob, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		    "<title>");
	html_str(ob, title);
	outbuf_puts(ob, "</title>\n<style>\n");
	outbuf_puts(ob, css);
	outbuf_puts(ob, "</style>\n</head>\n<body>\n<main>\n");
}

void html_end(struct outbuf *ob)
{
	outbuf_puts(ob, "<div id=\"tl-check\" hidden></div>\n</main>\n<script>\n");
	outbuf_puts(ob, script);
	outbuf_puts(ob, "</script>\n</body>\n</html>\n");
}

void html_section(struct outbuf *ob, const char *id, const char *title)
{
	outbuf_puts(ob, "<section id=\"");
	html_str(ob, id);
	outbuf_puts(ob, "\">\n<h2>");
	html_str(ob, title);
	outbuf_puts(ob, "</h2>\n");
}

void html_section_end(struct outbuf *ob)
{
	outbuf_puts(ob, "</section>\n");
}

void html_legend(struct outbuf *ob, const char *const *label, const char *const *color, size_t n)
{
	outbuf_puts(ob, "<div class=\"legend\">");
	for (size_t i = 0; i < n; i++) {
		outbuf_puts(ob, "<span><i style=\"background:");
		html_str(ob, color[i]);
		outbuf_puts(ob, "\"></i>");
		html_str(ob, label[i]);
		outbuf_puts(ob, "</span>");
	}
	outbuf_puts(ob, "</div>\n");
}

void html_table_begin(struct outbuf *ob, const char *id, const char *const *cols, size_t n)
{
	outbuf_puts(ob, "<div class=\"scroll\"><table class=\"sortable\" id=\"");
	html_str(ob, id);
	outbuf_puts(ob, "\">\n<thead><tr>");
	for (size_t i = 0; i < n; i++) {
		int num = !strncmp(cols[i], "n:", 2);
		outbuf_puts(ob, num ? "<th class=\"n\">" : "<th>");
		html_str(ob, cols[i] + (num ? 2 : 0));
		outbuf_puts(ob, "</th>");
	}
	outbuf_puts(ob, "</tr></thead>\n<tbody>\n");
}

void html_tr(struct outbuf *ob)
{
	outbuf_puts(ob, "<tr>");
}

void html_tr_end(struct outbuf *ob)
{
	outbuf_puts(ob, "</tr>\n");
}

void html_table_end(struct outbuf *ob)
{
	outbuf_puts(ob, "</tbody></table></div>\n");
}

/* Bytes of s[0..max) that end on a UTF-8 character boundary. */
static size_t char_floor(const char *s, size_t max)
{
	while (max > 0 && ((unsigned char)s[max] & 0xc0) == 0x80)
		max--;
	return max;
}

void html_td_text(struct outbuf *ob, const char *s, size_t n, int kind)
{
	outbuf_puts(ob, kind == HTML_TD_NAME ? "<td class=\"name\">" : "<td>");
	if (n > HTML_CELL_MAX) {
		html_text(ob, s, char_floor(s, HTML_CELL_MAX));
		html_printf(ob, "\xe2\x80\xa6 (%zu bytes)", n);
	} else {
		html_text(ob, s, n);
	}
	outbuf_puts(ob, "</td>");
}

void html_td_num(struct outbuf *ob, double v, int prec)
{
	if (isnan(v)) {
		outbuf_puts(ob, "<td class=\"n\"></td>");
		return;
	}
	if (isinf(v)) {
		outbuf_printf(ob, "<td class=\"n\" data-v=\"%s\">%s</td>", v > 0 ? "1e308" : "-1e308",
			      v > 0 ? "inf" : "-inf");
		return;
	}
	outbuf_printf(ob, "<td class=\"n\" data-v=\"%.17g\">%.*f</td>", v, prec, v);
}
