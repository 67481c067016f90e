// loadpages.h declares the C side of loadpages_linux.go.
#ifndef SK_LOADPAGES_H
#define SK_LOADPAGES_H

// sk_release_load_pages drops the mapped pages of the addon's never-written segments. It
// returns 1 when it released them, 0 when it left them (the addon was not found among the
// loaded objects, or the loader wrote into its code).
int sk_release_load_pages(void);

#endif
