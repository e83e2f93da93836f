/*
 * heap_pages: glibc's heap in 2 MB pages, for a program whose time goes
 * largely to touching hundreds of MB for the first time (tl-diff builds two
 * call trees): a page fault every 2 MB instead of every 4 kB.  These are
 * tl-report's settings (glibc.malloc.hugetlb=1, grown 16 MB at a time).
 *
 * glibc reads GLIBC_TUNABLES only when a program starts, so the program
 * runs itself again with it set: once, and only when the caller has not set
 * GLIBC_TUNABLES (set, even empty, it is left alone: that is how to keep
 * 4 kB pages).  Programs it starts inherit the setting.  Without
 * /proc/self/exe it goes on as it is.  Valgrind follows the exec only with
 * --trace-children=yes; with GLIBC_TUNABLES set there is none to follow.
 *
 *	int main(int argc, char **argv) { heap_pages_huge(argv); ... }
 */
#ifndef TL_HEAP_PAGES_H
#define TL_HEAP_PAGES_H

void heap_pages_huge(char **argv);

#endif
