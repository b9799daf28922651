#ifndef MMB_VERSION_H
#define MMB_VERSION_H

extern const char mmb_version[];	/* "0.1.0" */
extern const char mmb_git_sha[];	/* 12 hex digits of the build's HEAD, or "unknown" */

#endif
