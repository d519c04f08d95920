/* SPDX-License-Identifier: MIT */
/* Internals shared by the model's files: model.c, model-link.c, the
 * frame kinds (model-type-a.c, model-single.c) and model-xi.c. */
#pragma once

#include "model.h"
#include "util-mem.h"

struct kt {
	struct tt_ktouch pub;
	bool is_new;	/* begun in the frame being processed */
	bool ended;	/* ended, waiting for its link before kernel_end */
	double link_x, link_y;	/* begin position normalized to 0..1, or -1 */
	/* Paired with an XI touch (pub.xi_* set), still pending: waiting
	 * for the flags of that touch's regular (non-raw) events. */
	bool xi_matched;
	double hid_x, hid_y;	/* begin position normalized for the HID link, or -1 */
};

/* A HID contact sequence. */
struct ht {
	struct tt_htouch pub;
	bool seen;	/* reported in the frame being assembled */
	bool ended;	/* ended, waiting for its link before hid_end */
	double link_x, link_y;	/* begin position normalized to 0..1, or -1 */
};

/* An application collection's frame assembly, as hid-multitouch's
 * struct mt_application keeps it. */
struct hcoll {
	uint32_t collection;
	uint32_t expected, received;
	bool have_scan;
	int32_t prev_scan;
};

/* One half of a report-to-frame pair, and the state it left: the
 * positions of the contacts down (model-hid-frames.c). */
struct hpair {
	struct tt_hframe l;
	uint64_t state;
};

struct hdev {
	uint32_t id;
	const struct tt_hid_device *dev;
	struct tt_hid_desc *desc;	/* NULL: the descriptor did not parse */
	struct hcoll *colls;
	size_t ncolls;
	struct ht **active;
	size_t nactive, capactive;
	int64_t last_us;
};

struct xt {
	struct tt_xtouch pub;
	bool got_update;
	bool own_involved;	/* someone owned, accepted or rejected this touch */
	bool accepted_elsewhere;
	bool rejected_elsewhere;
};

enum mdev_kind {
	MDEV_NONE,
	MDEV_B,
	MDEV_A,
	MDEV_ST,
};

struct mdev {
	bool used;
	uint32_t id;
	const struct tt_device *dev;
	enum mdev_kind kind;
	bool has_tracking;
	int64_t last_time;
	uint8_t keys[TT_BITMAP_BYTES(KEY_CNT)];
	int32_t abs_vals[ABS_CNT];
	/* Type B */
	uint32_t nslots;
	int32_t cur_slot;
	struct kt **slot_touch;
	int32_t (*slot_vals)[TT_MT_AXES];
	uint32_t *dirty;
	uint32_t *slot_known;	/* axes the recording gave the slot a value of */
	bool *slot_stale;	/* not set by the device since a SYN_DROPPED */
	/* One past the highest slot ever set or down at start: the
	 * per-frame loops stop there (devices declare 10 to 60 slots
	 * and use the first few). */
	uint32_t slot_hi;
	uint32_t nstale;	/* how many slot_stale are set: settled asks per update */
	bool slot_unknown;	/* the current slot, since a SYN_DROPPED */
	bool keys_unsure;	/* BTN_TOUCH at start disagrees with the slots */
	uint32_t has_axes;	/* TT_AXIS_BIT() of the device's ABS_MT_* axes */
	/* Type A and single touch */
	struct kt **active;
	uint32_t nactive;
	uint32_t next_synthetic;
};

struct xidev {
	int32_t deviceid;
	int64_t evdev;		/* linked evdev record id, -1 */
	bool touch;		/* has a touch class */
	bool xwayland;		/* Xwayland's: gets only the touches on X windows */
	int vx, vy;		/* valuator numbers of x and y, -1 */
	double xmin, xmax, ymin, ymax;
};

struct tt_model {
	struct tt_model_callbacks cb;
	void *data;
	struct mdev devs[TT_MAX_DEVICES];
	size_t ndevs;
	uint64_t kserial, xserial;
	size_t last_line;

	struct xt **xt;
	size_t nxt, capxt;

	bool link_on;
	bool xi_gone;		/* the X connection was lost (x-lost): no XI is to come */
	int64_t link_window_us;
	double link_tolerance;
	struct kt **pending;	/* kernel touches waiting for their XI begin */
	size_t npending, cappending;
	struct xidev *xidevs;
	size_t nxidevs;
	struct { int32_t sourceid; uint32_t touchid; } recent[64];	/* XI touches already linked */
	/* The last accepts and rejects: the server sends them to the owner
	 * first, so another client's TouchBegin may come after them. */
	struct xi_resolution { uint32_t touchid; bool accept; char client[32]; } resolved[64];
	size_t nresolved;	/* ring: total seen */
	size_t nrecent;

	/* model-hid.c */
	struct hdev *hdevs;
	size_t nhdevs;
	/* The descriptor of the hid_device record being fed, parsed before
	 * the model took it (tt_model_hid_parse()), or NULL. */
	struct hid_parsed {
		const struct tt_hid_device *dev;
		struct tt_hid_desc *desc;
		char *why;
	} hparsed;
	uint64_t hserial;
	int64_t hid_before_us, hid_after_us;
	struct ht **hpending;	/* HID contacts waiting for their kernel touch */
	size_t nhpending, caphpending;
	struct kt **kpending;	/* kernel touches waiting for their HID contact */
	size_t nkpending, capkpending;
	/* model-hid-frames.c: reports and frames waiting for each other */
	struct hpair *hreps;	/* the report half filled */
	size_t nhreps, caphreps;
	struct hpair *hframes;	/* the frame half filled */
	size_t nhframes, caphframes;
};

struct mdev *tt_model_find_dev(struct tt_model *m, uint32_t id);
void tt_model_emit_end(struct tt_model *m, struct kt *k);

/* Frees @k, or leaves it to the links still pending on it. */
void tt_model_free_kt(struct kt *k);

/* model-hid.c */
void tt_model_hid_device(struct tt_model *m, const struct tt_record *rec);
void tt_model_hid_report(struct tt_model *m, const struct tt_record *rec);
/* A kernel touch began on @d: pair it, or wait for its HID contact. */
void tt_model_hid_kernel_begin(struct tt_model *m, struct mdev *d, struct kt *k);
void tt_model_hid_advance(struct tt_model *m, int64_t now);
/* End of input: open HID contacts end, pending links give up. */
void tt_model_hid_finish(struct tt_model *m);
void tt_model_hid_free(struct tt_model *m);

/* model-hid-frames.c */
/* @collection: the application collection the report was about. */
void tt_model_hid_frames_report(struct tt_model *m, const struct hdev *h, const struct tt_record *rec,
				uint8_t report_id, uint32_t collection);
void tt_model_hid_frames_evdev(struct tt_model *m, const struct mdev *d, const struct tt_record *rec);
void tt_model_hid_frames_advance(struct tt_model *m, int64_t now);
void tt_model_hid_frames_finish(struct tt_model *m);
void tt_model_hid_frames_free(struct tt_model *m);

/* model-link.c */
void tt_model_link_xi_device(struct tt_model *m, const struct tt_xi_device *d);
void tt_model_link_kernel_begin(struct tt_model *m, struct mdev *d, struct kt *k);
/* Every XI touch begin (raw or not) and every regular TouchUpdate. */
void tt_model_link_xi_touch(struct tt_model *m, const struct tt_xi_event *ev, size_t line);
void tt_model_link_advance(struct tt_model *m, int64_t now);
void tt_model_link_flush(struct tt_model *m);
/* The recorder lost the X server: touches waiting for their XI begin,
 * and those that begin until X devices are declared again, have nothing
 * to link to (TT_LINK_NONE), not an undelivered touch. */
void tt_model_link_xi_lost(struct tt_model *m);

/* model.c, for the frame kinds in their own files */
void tt_model_emit_begin(struct tt_model *m, struct mdev *d, struct kt *k);
void tt_model_end_touch(struct tt_model *m, struct kt *k, int64_t t, size_t line, uint32_t flags);
struct kt *tt_model_new_touch(struct tt_model *m, struct mdev *d, int32_t slot, int64_t t, size_t line);
void tt_model_note_known(struct kt *k, uint32_t unknown);
/* model-type-a.c, model-single.c, model-xi.c */
void tt_model_frame_type_a(struct tt_model *m, struct mdev *d, const struct tt_frame *f, size_t line);
void tt_model_frame_single(struct tt_model *m, struct mdev *d, const struct tt_frame *f, size_t line,
			   bool was_down);
void tt_model_feed_xi(struct tt_model *m, const struct tt_record *rec);
void tt_model_xt_end(struct tt_model *m, struct xt *x, int64_t t, size_t line);
