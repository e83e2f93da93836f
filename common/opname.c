#include <stdlib.h>
#include <string.h>

#include "opname.h"
#include "xalloc.h"
#include "banned.h"

void opname_init(struct opname *on)
{
	on->buf = NULL;
	on->len = on->alloc = 0;
}

void opname_release(struct opname *on)
{
	free(on->buf);
	opname_init(on);
}

static void put(struct opname *on, const char *s, size_t n)
{
	xgrow((void **)&on->buf, &on->alloc, on->len + n + 1, 1);
	tl_memcpy(on->buf + on->len, s, n);
	on->len += n;
	on->buf[on->len] = '\0';
}

static int is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Python's \s for the characters that occur in names (ASCII only). */
static int is_space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
}

/* Length of a "(<digits>)" or ".py(<digits>):" match at s, 0 if none. */
static size_t paren_digits(const char *s, size_t n, size_t i)
{
	size_t k = i + 1;
	if (i >= n || s[i] != '(')
		return 0;
	while (k < n && is_digit(s[k]))
		k++;
	if (k == i + 1 || k >= n || s[k] != ')')
		return 0;
	return k + 1 - i;
}

static void rewrite_hex_and_lines(struct opname *on, const char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		if (s[i] == '0' && i + 2 < n && s[i + 1] == 'x' && is_hex(s[i + 2])) {
			size_t k = i + 2;
			while (k < n && is_hex(s[k]))
				k++;
			put(on, "0xXXXX", 6);
			i = k;
			continue;
		}
		put(on, s + i, 1);
		i++;
	}
}

static void rewrite_py_lines(struct opname *on)
{
	char *s = on->buf;
	size_t n = on->len, o = 0, i = 0;

	while (i < n) {
		if (i + 3 < n && !memcmp(s + i, ".py", 3)) {
			size_t p = paren_digits(s, n, i + 3);
			if (p && i + 3 + p < n && s[i + 3 + p] == ':') {
				tl_memmove(s + o, ".py:", 4);
				o += 4;
				i += 3 + p + 1;
				continue;
			}
		}
		s[o++] = s[i++];
	}
	on->len = o;
	s[o] = '\0';
}

/* re.sub(r":\s+\S+$", "", s): the leftmost ':' whose rest is space+ then non-space+. */
static void strip_last_detail(struct opname *on)
{
	for (size_t i = 0; i < on->len; i++) {
		size_t k = i + 1;
		if (on->buf[i] != ':')
			continue;
		while (k < on->len && is_space(on->buf[k]))
			k++;
		if (k == i + 1 || k == on->len)
			continue;
		while (k < on->len && !is_space(on->buf[k]))
			k++;
		if (k == on->len) {
			on->len = i;
			on->buf[i] = '\0';
			return;
		}
	}
}

/* A whole-string path "<dirs>/<base>.py" becomes "<base>.py" (no newlines assumed). */
static void keep_py_basename(struct opname *on)
{
	char *slash = memrchr(on->buf, '/', on->len);
	size_t base;

	if (!slash || memchr(on->buf, '\n', on->len))
		return;
	base = (size_t)(slash - on->buf) + 1;
	if (on->len - base < 4 || memcmp(on->buf + on->len - 3, ".py", 3))
		return;
	tl_memmove(on->buf, on->buf + base, on->len - base);
	on->len -= base;
	on->buf[on->len] = '\0';
}

const char *opname_norm(struct opname *on, const char *s, size_t n, int strip_details)
{
	on->len = 0;
	put(on, "", 0);
	rewrite_hex_and_lines(on, s, n);
	rewrite_py_lines(on);
	if (strip_details) {
		strip_last_detail(on);
		keep_py_basename(on);
	}
	if (!strcmp(on->buf, "hipModuleLaunchKernel") || !strcmp(on->buf, "cuLaunchKernel")) {
		on->len = 0;
		put(on, "__kernel_launch__", 17);
	}
	return on->buf;
}

const char *opname_unparen(struct opname *on, const char *s, size_t n)
{
	size_t i = 0;

	on->len = 0;
	put(on, "", 0);
	while (i < n) {
		size_t p = paren_digits(s, n, i);
		if (p) {
			i += p;
			continue;
		}
		put(on, s + i, 1);
		i++;
	}
	return on->buf;
}
