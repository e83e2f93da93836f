/*
 * replay_ir: TraceLens's EventReplayer without torch (spec §5,
 * event_replay.py): the first schema of the op's name that passes
 * _is_schema_match, then _get_event_replay_IR, written as one entry of
 * event_replay_ir.json exactly as json.dump([get_repro_info(), ...],
 * indent=4) writes it.
 *
 *	struct replay_event ev = { "aten::mm", dims, types, strides, concrete };
 *	struct replay_ir ir;
 *	if (replay_ir_build(&ir, rs, &ev) < 0) ir.why says why (TraceLens raises)
 *	else replay_ir_write(&ir, out, count);   count < 0: no "count" key
 *	replay_ir_release(&ir);
 *
 * dims, types, strides and concrete are the event's "Input Dims", "Input
 * type", "Input Strides" and "Concrete Inputs" as compact JSON (NULL or ""
 * when absent).  Where TraceLens raises (no schema matches, a Tensor[]
 * argument, a value that int() or float() refuse, an argument type its IR
 * has no rule for, a schema string its parser refuses) the op cannot be
 * replayed and why names the reason.
 */
#ifndef TL_REPLAY_IR_H
#define TL_REPLAY_IR_H

#include <stddef.h>

#include "json_value.h"
#include "py_repr.h"
#include "replay_schema.h"

struct replay_event {
	const char *name;
	const char *dims, *types, *strides, *concrete;	/* compact JSON */
};

struct replay_ir {
	struct json_value *dims, *types, *strides, *concrete;	/* parsed, or NULL */
	const char *schema;	/* the matched schema's text */
	struct replay_sig sig;
	char why[256];		/* on failure */
	struct pystr args;	/* the list_pos_args / list_kwargs bodies */
	struct pystr kwargs;
	size_t ntensor;		/* Tensor arguments built */
};

int replay_ir_build(struct replay_ir *ir, const struct replay_schemas *rs,
		    const struct replay_event *ev);
/* one list element at indent level 1, no trailing newline or comma */
void replay_ir_write(const struct replay_ir *ir, struct pystr *out, const char *name,
		     long count);
void replay_ir_release(struct replay_ir *ir);

/* json.dumps(s) (ensure_ascii): the quoted JSON string */
void replay_json_str(struct pystr *out, const char *s, size_t n);
/* json.dumps(v, indent=4) with the value at indent level; level < 0:
 * json.dumps(v) on one line */
void replay_json_dump(struct pystr *out, const struct json_value *v, int level);

#endif
