/*
 * path: the name of a file in a folder, as every program that writes or
 * reads a report folder builds it.
 *
 *	char *p = path_join(dir, "gpu_timeline", ".csv");   "dir/gpu_timeline.csv"
 *	free(p);
 *
 * DIR and NAME are joined with one '/' whatever they hold (no
 * normalisation, so messages show the folder as the user named it);
 * tl-split's os.path.join is infer_path_join (infer_write.h).
 */
#ifndef TL_PATH_H
#define TL_PATH_H

/* DIR/NAME followed by SUFFIX ("" for none), malloc'd; dies on no memory. */
char *path_join(const char *dir, const char *name, const char *suffix);

#endif
