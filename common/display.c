#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "display.h"
#include "outbuf.h"
#include "xalloc.h"
#include "banned.h"

/* From the C++ runtime (libstdc++ / libc++abi); plain C linkage. */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

/* Length of the valid UTF-8 sequence at s[0..n), or 0 if it is not one. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t k;
	uint32_t c;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] < 0xe0)
		k = 2, c = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] < 0xf0)
		k = 3, c = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] < 0xf5)
		k = 4, c = s[0] & 0x07;
	else
		return 0;
	if (k > n)
		return 0;
	for (size_t i = 1; i < k; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((k == 3 && c < 0x800) || (k == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c < 0xe000))
		return 0;
	return k;
}

/* Where escaped text goes: an outbuf, or a bounded buffer (messages). */
struct sink {
	struct outbuf *ob;
	char *mem;
	size_t len, cap;
	int full;
};

static void put(struct sink *k, const char *s, size_t n)
{
	if (k->ob) {
		outbuf_put(k->ob, s, n);
	} else if (n > k->cap - k->len) {
		k->full = 1;
	} else {
		tl_memcpy(k->mem + k->len, s, n);
		k->len += n;
	}
}

static void put_hex(struct sink *k, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";
	char b[4] = { '\\', 'x', hex[c >> 4], hex[c & 15] };

	put(k, b, 4);
}

/* The character reference HTML text and attribute values need for c. */
static const char *html_entity(unsigned char c)
{
	switch (c) {
	case '&': return "&amp;";
	case '<': return "&lt;";
	case '>': return "&gt;";
	case '"': return "&quot;";
	case '\'': return "&#39;";
	default: return NULL;
	}
}

static void escape(struct sink *out, const char *s, size_t n, int mode)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, run = 0;	/* s[run..i) is plain text not yet written */

	while (i < n) {
		unsigned char c = u[i];
		size_t k = c >= 0x20 && c < 0x7f ? 1 : utf8_len(u + i, n - i);
		int c1 = k == 2 && c == 0xc2 && u[i + 1] < 0xa0;
		int md = mode == DISPLAY_MARKDOWN && (c == '|' || c == '\\');
		const char *ent = mode == DISPLAY_HTML ? html_entity(c) : NULL;

		if (k && !c1 && !md && !ent && c >= 0x20 && c != 0x7f) {
			i += k;
			continue;
		}
		put(out, s + run, i - run);
		if (ent) {
			put(out, ent, strlen(ent));
			i++;
		} else if (md) {
			char b[2] = { '\\', (char)c };
			put(out, b, 2);
			i++;
		} else if (c == '\t' || c == '\n' || c == '\r') {
			char b[2] = { '\\', c == '\t' ? 't' : c == '\n' ? 'n' : 'r' };
			put(out, b, 2);
			i++;
		} else if (c1) {
			put_hex(out, u[i]);
			put_hex(out, u[i + 1]);
			i += 2;
		} else {
			put_hex(out, c);
			i++;
		}
		run = i;
	}
	put(out, s + run, n - run);
}

void display_escape(struct outbuf *ob, const char *s, size_t n, int mode)
{
	struct sink k = { ob, NULL, 0, 0, 0 };

	escape(&k, s, n, mode);
}

size_t display_escape_mem(char *dst, size_t cap, const char *s, size_t n, int mode)
{
	struct sink k = { NULL, dst, 0, cap, 0 };

	escape(&k, s, n, mode);
	return k.full ? SIZE_MAX : k.len;
}

char *display_demangle(const char *name)
{
	int status = -1;
	char *d, *r;

	if (strncmp(name, "_Z", 2) != 0)
		return NULL;
	d = __cxa_demangle(name, NULL, NULL, &status);
	if (status != 0 || !d) {
		free(d);
		return NULL;
	}
	/* the runtime's malloc is ours, but copy so callers need not know */
	r = xstrdup(d);
	free(d);
	return r;
}
