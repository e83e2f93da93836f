/*
 * replay_schema: the ATen schema table tl-replay matches profiled ops
 * against (share/tl/aten-schemas.txt: str() of every aten:: schema of
 * torch._C._jit_get_all_schemas(), in its order, made by
 * scripts/aten-schemas), and TraceLens's parse of one schema string
 * (EventReplayer.parse_schema_string, event_replay.py:355-394).
 *
 *	struct replay_schemas *rs = replay_schemas_load(NULL);  NULL: message printed
 *	size_t n; const uint32_t *ids = replay_schemas_find(rs, "aten::mm", &n);
 *	for (i = 0; i < n; i++) text = replay_schemas_text(rs, ids[i]);
 *	struct replay_sig sig;
 *	if (replay_sig_parse(&sig, text, &why) < 0) TraceLens raises ValueError(why)
 *	use sig.arg[0 .. sig.npos) positional, [sig.npos .. sig.n) keyword-only
 *	replay_sig_release(&sig);
 *	replay_schemas_free(rs);
 *
 * The parse keeps TraceLens's quirks: the argument list is split at every
 * '*' (an alias annotation such as "Tensor(a -> *)" breaks it, and the
 * parse then fails as TraceLens's does) and at every ',' (a list default
 * "=[0, 1]" fails likewise); a failure aborts TraceLens's whole schema
 * search, so callers treat it as "cannot replay", not "try the next".
 */
#ifndef TL_REPLAY_SCHEMA_H
#define TL_REPLAY_SCHEMA_H

#include <stddef.h>
#include <stdint.h>

struct replay_schemas;

/* path NULL: aten-schemas.txt from the share folder */
struct replay_schemas *replay_schemas_load(const char *path);
void replay_schemas_free(struct replay_schemas *rs);
/* the schemas whose name (before the overload) is name, in table order */
const uint32_t *replay_schemas_find(const struct replay_schemas *rs, const char *name,
				    size_t *n);
const char *replay_schemas_text(const struct replay_schemas *rs, uint32_t id);
size_t replay_schemas_count(const struct replay_schemas *rs);

struct replay_sig_arg {
	char *type, *name;	/* "Tensor?", "self" */
};

struct replay_sig {
	struct replay_sig_arg *arg;	/* positional first, then keyword-only */
	size_t n, npos;
};

/* 0, or -1 with *why (static text) where TraceLens's parse raises */
int replay_sig_parse(struct replay_sig *sig, const char *text, const char **why);
void replay_sig_release(struct replay_sig *sig);

#endif
