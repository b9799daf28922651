#include "dbopen.h"
#include "db.h"
#include "util.h"

int db_open_results(struct mmb_db *db, const char *path)
{
	int rc = db_open_existing(db, db_default_path(path));

	if (!rc)
		return EXIT_OK;
	return rc == DB_ENOENT ? EXIT_USAGE : EXIT_RUNTIME;
}
