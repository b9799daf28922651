/* Opening the results database a command reads. */
#ifndef MMB_DBOPEN_H
#define MMB_DBOPEN_H

struct mmb_db;

/*
 * Open the existing results database (path: --db FILE, NULL for the
 * default).  EXIT_OK, or after the message EXIT_USAGE when there is no such
 * file (the user named the wrong one) and EXIT_RUNTIME when it cannot be read.
 */
int db_open_results(struct mmb_db *db, const char *path);

#endif
