/*
 * ab --host's campaign: the plan, its file, and the step each boot takes
 * (abhost.h).  The machine side is abhost-boot.c.
 */
#include "abhost.h"
#include "abhost-internal.h"
#include "db.h"
#include "read.h"
#include "envctl.h"
#include "hostroot.h"
#include "kbuild.h"
#include "proc.h"
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

static char *state_file(void)
{
	return xasprintf("%s/ab-host", envctl_state_dir());
}

static void campaign_free(struct campaign *c)
{
	char **s[] = { &c->status, &c->config, &c->db, &c->mode, &c->plan, &c->home_release,
		       &c->home_cmdline };

	for (size_t i = 0; i < ARRAY_SIZE(s); i++)
		free(*s[i]);
	for (int i = 0; i < 2; i++) {
		struct abhost_side *k = &c->k[i];

		free(k->label), free(k->image), free(k->initrd), free(k->cmdline), free(k->release),
			free(k->entry);
	}
	strbuf_release(&c->log);
}

#define SIDE_KEYS(X) X(label) X(image) X(initrd) X(cmdline) X(release) X(entry)

/* key TAB value lines; values hold no TAB or newline (checked at the start) */
static int campaign_save(const struct campaign *c)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = state_file();
	int rc, fd;

	strbuf_addf(&sb, "status\t%s\nconfig\t%s\ndb\t%s\nmode\t%s\nplan\t%s\nnext\t%d\n"
		    "inflight\t%d\ndeadline\t%.0f\nfailures\t%d\nmax_failures\t%d\nresume_s\t%d\n"
		    "seed\t%d\nrounds\t%d\nhome_release\t%s\nhome_cmdline\t%s\n", c->status, c->config,
		    c->db, c->mode, c->plan, c->next, c->inflight, c->deadline, c->failures,
		    c->max_failures, c->resume_s, c->seed, c->rounds, c->home_release, c->home_cmdline);
	if (c->precision > 0)
		strbuf_addf(&sb, "precision\t%.17g\nmax_rounds\t%d\nwas_precise\t%d\n", c->precision,
			    c->max_rounds, c->was_precise);
	for (int i = 0; i < 2; i++) {
#define PUT(f) if (c->k[i].f) strbuf_addf(&sb, "%c.%s\t%s\n", 'a' + i, #f, c->k[i].f);
		SIDE_KEYS(PUT)
#undef PUT
	}
	strbuf_addstr(&sb, c->log.buf ? c->log.buf : "");
	rc = write_file_atomic_mode(path, sb.buf, sb.len, 0600);
	/* the rename itself must survive a power cut too */
	if (!rc && (fd = open(envctl_state_dir(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
		fsync(fd);
		close(fd);
	}
	if (rc)
		error("ab --host: cannot write the campaign file %s: %s", path, strerror(errno));
	free(path);
	strbuf_release(&sb);
	return rc ? -1 : 0;
}

static void campaign_set(struct campaign *c, const char *key, const char *v)
{
	char **s = !strcmp(key, "status") ? &c->status : !strcmp(key, "config") ? &c->config :
		   !strcmp(key, "db") ? &c->db : !strcmp(key, "mode") ? &c->mode :
		   !strcmp(key, "plan") ? &c->plan : !strcmp(key, "home_release") ? &c->home_release :
		   !strcmp(key, "home_cmdline") ? &c->home_cmdline : NULL;
	int *n = !strcmp(key, "next") ? &c->next : !strcmp(key, "inflight") ? &c->inflight :
		 !strcmp(key, "failures") ? &c->failures : !strcmp(key, "max_failures") ? &c->max_failures :
		 !strcmp(key, "resume_s") ? &c->resume_s : !strcmp(key, "seed") ? &c->seed :
		 !strcmp(key, "rounds") ? &c->rounds : !strcmp(key, "max_rounds") ? &c->max_rounds :
		 !strcmp(key, "was_precise") ? &c->was_precise : NULL;

	if (s) {
		free(*s);
		*s = xstrdup(v);
	} else if (n) {
		*n = atoi(v);
	} else if (!strcmp(key, "deadline")) {
		c->deadline = atof(v);
	} else if (!strcmp(key, "precision")) {
		c->precision = atof(v);
	} else if (!strcmp(key, "failure")) {
		strbuf_addf(&c->log, "failure\t%s\n", v);
	} else if ((key[0] == 'a' || key[0] == 'b') && key[1] == '.') {
		struct abhost_side *k = &c->k[key[0] - 'a'];
#define GET(f) if (!strcmp(key + 2, #f)) { free(k->f); k->f = xstrdup(v); }
		SIDE_KEYS(GET)
#undef GET
	}
}

/* 0, 1 when there is no campaign file, -1 on a damaged one. */
static int campaign_load(struct campaign *c)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = state_file(), *line, *save;

	memset(c, 0, sizeof(*c));
	strbuf_init(&c->log);
	c->inflight = -1;
	/* root's boot hook kexecs what it names: only a file nobody else could write */
	if (envctl_check_private_file(path)) {
		free(path);
		return -1;
	}
	if (strbuf_read_file(&sb, path) < 0) {
		int rc = errno == ENOENT ? 1 : error("ab --host: cannot read %s: %s", path,
						     strerror(errno));
		free(path);
		strbuf_release(&sb);
		return rc;
	}
	for (line = strtok_r(sb.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *tab = strchr(line, '\t');

		if (tab) {
			*tab = '\0';
			campaign_set(c, line, tab + 1);
		}
	}
	strbuf_release(&sb);
	if (!c->status || !c->plan || !c->config || !c->db || !c->mode || !c->k[0].label ||
	    !c->k[1].label || !c->k[0].release || !c->k[1].release || !c->k[0].cmdline ||
	    !c->k[1].cmdline || !c->home_release || !c->home_cmdline) {
		error("ab --host: the campaign file %s is damaged (a key is missing); "
		      "--abort it", path);
		free(path);
		return -1;
	}
	free(path);
	return 0;
}

static void campaign_fail(struct campaign *c, const char *fmt, const char *a, const char *b)
{
	char msg[1024];

	snprintf(msg, sizeof(msg), fmt, a, b);
	for (char *p = msg; *p; p++)
		if (*p == '\t' || *p == '\n')
			*p = ' ';
	c->failures++;
	strbuf_addf(&c->log, "failure\tboot %d: %s\n", c->next + 1, msg);
	error("ab --host: boot %d failed: %s (%d of %d failures allowed)", c->next + 1, msg,
	      c->failures, c->max_failures);
}

/* `mmbench run --name LABEL` on this kernel, and what kernel it was in run_env. */
static int run_boot(const struct campaign *c, int side, const struct running *now)
{
	const char *argv[] = { exe_path(), "run", "--name", c->k[side].label, "--db", c->db,
			       c->config, NULL };
	char boot[32];
	struct mmb_db db;
	int rc, id = 0;

	info("ab --host: boot %d/%zu: running %s on %s", c->next + 1, strlen(c->plan), c->config,
	     c->k[side].label);
	rc = run_argv(argv, NULL, NULL);
	/* refused input (exit 2) is refused again at every boot: no point retrying */
	if (rc == EXIT_USAGE)
		return error("ab --host: mmbench run refused %s on %s (exit 2, see above); "
			     "fix it and start a new campaign", c->config, c->k[side].label),
		       MMB_EUSAGE;
	if (rc)
		return error("ab --host: mmbench run on %s exited with %d", c->k[side].label, rc);
	if (db_open(&db, c->db))
		return -1;
	snprintf(boot, sizeof(boot), "%d/%zu", c->next + 1, strlen(c->plan));
	rc = db_newest_run(&db, c->k[side].label, &id);
	if (!rc && id > 0)
		rc = db_run_env(&db, id, "host.kernel.release", now->release, NULL) ||
		     db_run_env(&db, id, "host.kernel.cmdline", now->cmdline, NULL) ||
		     (now->build_id[0] && db_run_env(&db, id, "host.kernel.build_id", now->build_id, NULL)) ||
		     db_run_env(&db, id, "ab.host.boot", boot, NULL) ||
		     db_run_env(&db, id, "ab.host.mode", c->mode, NULL);
	db_close(&db);
	return rc ? -1 : 0;
}

/* The campaign's end: the hook removed, the verdict, back to the default kernel. */
static int campaign_end(struct campaign *c, const char *status, const struct running *now)
{
	char *unit = envctl_hook_path();
	int rc = 0;

	free(c->status);
	c->status = xstrdup(status);
	if (campaign_save(c))
		rc = -1;
	if (envctl_remove_hook(unit))
		rc = -1;
	/* the hook's journal entries go too, unless another run owns the journal now */
	if (envctl_lock() == 0 && envctl_restore_all())
		rc = -1;
	free(unit);
	if (!strcmp(status, "done")) {
		struct ab_opts o;
		struct ab_result r = { 0 };

		ab_opts_init(&o);
		o.no_plots = true;
		r.compare_rc = -1;
		r.base_label = xstrdup(c->k[0].label);
		r.new_label = xstrdup(c->k[1].label);
		info("ab --host: %d rounds of %s vs %s done (%d failure%s)", c->rounds,
		     r.base_label, r.new_label, c->failures, c->failures == 1 ? "" : "s");
		if (ab_report(&o, c->db, c->rounds, &r))
			rc = -1;
		ab_result_release(&r);
		ab_opts_release(&o);
	} else if (!strcmp(status, "aborted")) {
		info("ab --host: campaign aborted at boot %d of %zu; its runs stay in %s", c->next + 1,
		     strlen(c->plan), c->db);
	} else {
		error("ab --host: campaign %s after %d failures; see `mmbench ab --host --status`",
		      status, c->failures);
		rc = -1;
	}
	/* never left on a campaign kernel: a plain reboot boots the default one */
	if (strcmp(now->release, c->home_release) || strcmp(now->cmdline, c->home_cmdline))
		abhost_reboot_default();
	return rc;
}

/* The boot in flight came up: the kernel expected, within the bound? */
static void check_inflight(struct campaign *c, int cur, const struct running *now)
{
	int want = c->plan[c->inflight] - 'A';
	char bound[16];

	snprintf(bound, sizeof(bound), "%d", c->resume_s);
	if (cur != want)
		campaign_fail(c, "expected %s, came up as %s", c->k[want].label,
			      now->release[0] ? now->release : "(unknown)");
	else if (now_wall() > c->deadline)
		campaign_fail(c, "%s resumed after the bound (%s s)", c->k[want].label, bound);
	c->inflight = -1;
}

static char *make_plan(int rounds, int seed);

/*
 * --precision at the plan's end: ab's look at the rounds so far (the
 * pilot, then doubling); more rounds append to the plan as make_plan()
 * would have made it for them, mirrored as the campaign's was.  1 when the
 * plan grew, 0 when it is done, -1 on error.
 */
static int campaign_more(struct campaign *c)
{
	struct ab_opts o;
	struct ab_result r = { 0 };
	bool was = c->was_precise;
	size_t next = 0;
	char *old, *plan;
	int rc;

	ab_opts_init(&o);
	o.precision = c->precision;
	o.max_rounds = c->max_rounds;
	r.base_label = xstrdup(c->k[0].label);
	r.new_label = xstrdup(c->k[1].label);
	rc = ab_precision_next(&o, c->db, &r, (size_t)c->rounds, &was, &next);
	ab_result_release(&r);
	ab_opts_release(&o);
	if (rc)
		return -1;
	c->was_precise = was;
	if (next <= (size_t)c->rounds)
		return 0;
	old = make_plan(c->rounds, c->seed);
	plan = make_plan((int)next, c->seed);
	if (strcmp(old, c->plan))	/* mirrored: the campaign started on B */
		for (char *p = plan; *p; p++)
			*p = *p == 'A' ? 'B' : 'A';
	free(old);
	free(c->plan);
	c->plan = plan;
	info("ab --host: --precision: %d more round%s, plan %s", (int)next - c->rounds,
	     (int)next - c->rounds == 1 ? "" : "s", c->plan);
	c->rounds = (int)next;
	return 1;
}

/* Run the plan from c->next on: boots, kexecs away, or ends. */
static int campaign_step(struct campaign *c)
{
	struct running now;

	for (;;) {
		int cur, side;

		abhost_running(&now);
		cur = abhost_running_side(c, &now);
		if (c->inflight >= 0) {
			check_inflight(c, cur, &now);
			if (campaign_save(c))
				return -1;
		}
		if (c->failures >= c->max_failures)
			return campaign_end(c, "failed", &now);
		if ((size_t)c->next >= strlen(c->plan)) {
			int more = c->precision > 0 ? campaign_more(c) : 0;

			if (more < 0)
				return campaign_end(c, "failed", &now);
			if (more && campaign_save(c))
				return -1;
			if (more)
				continue;
			return campaign_end(c, "done", &now);
		}
		side = c->plan[c->next] - 'A';
		if (cur == side) {
			int rc = run_boot(c, side, &now);

			if (rc == MMB_EUSAGE) {
				c->failures = c->max_failures;
				campaign_fail(c, "the run on %s refused the experiment%s",
					      c->k[side].label, "");
				return campaign_end(c, "failed", &now) ? MMB_EUSAGE : 0;
			}
			if (rc == 0)
				c->next++;
			else
				campaign_fail(c, "the run on %s failed%s", c->k[side].label, "");
			if (campaign_save(c))
				return -1;
			continue;
		}
		if (abhost_hook_install())
			return campaign_end(c, "failed", &now);
		c->inflight = c->next;
		c->deadline = now_wall() + c->resume_s;
		if (campaign_save(c))
			return -1;
		info("ab --host: boot %d/%zu: %s into %s", c->next + 1, strlen(c->plan),
		     !strcmp(c->mode, "kexec") ? "kexec" : "reboot", c->k[side].label);
		abhost_boot(c, side);	/* returns only when it failed */
		c->inflight = -1;
		campaign_fail(c, "could not boot %s%s", c->k[side].label, "");
		if (campaign_save(c))
			return -1;
	}
}

/* A B B A A B ..., or each round's order from the seed (recorded). */
static char *make_plan(int rounds, int seed)
{
	char *p = xmalloc(2 * (size_t)rounds + 1);
	unsigned x = (unsigned)seed;

	for (int r = 0; r < rounds; r++) {
		bool ba;

		if (seed) {
			x ^= x << 13, x ^= x >> 17, x ^= x << 5;	/* xorshift32 */
			ba = x & 1;
		} else {
			ba = r & 1;
		}
		p[2 * r] = ba ? 'B' : 'A';
		p[2 * r + 1] = ba ? 'A' : 'B';
	}
	p[2 * rounds] = '\0';
	return p;
}

/* No TAB or newline: the campaign file is key TAB value lines. */
static int one_line(const char *what, const char *v)
{
	if (v && strpbrk(v, "\t\n"))
		return error("ab --host: %s holds a TAB or a newline: '%s'", what, v);
	return 0;
}

/* --kernel-X: a `kernel build` label, or an image file with its release read from it. */
static int side_resolve(const struct ab_opts *o, int i, const struct running *now,
			struct abhost_side *k)
{
	const struct ab_host_opts *h = &o->host;
	const char *cache = o->vm.cache_dir ? o->vm.cache_dir : kbuild_cache_dir();
	const char *name = i ? o->new_label : o->base_label;
	struct kernel_entry e;
	char rel[256];

	if (access(h->kernel[i], F_OK) == 0) {
		k->image = realpath(h->kernel[i], NULL);
		if (!k->image || abhost_bzimage_release(k->image, rel, sizeof(rel)))
			return error("ab --host: --kernel-%c %s: no release in its setup header "
				     "(not a bzImage?)", 'a' + i, h->kernel[i]);
		k->release = xstrdup(rel);
		k->label = xstrdup(name ? name : rel);
	} else if (kbuild_find(cache, h->kernel[i], &e) == 0) {
		k->image = xstrdup(e.bzimage);
		k->release = xstrdup(e.release);
		k->label = xstrdup(name ? name : h->kernel[i]);
		kernel_entry_release(&e);
	} else {
		return error("ab --host: --kernel-%c %s is neither a kernel image nor a label of "
			     "`mmbench kernel list`", 'a' + i, h->kernel[i]);
	}
	if (h->initrd[i] && !(k->initrd = realpath(h->initrd[i], NULL)))
		return error("ab --host: --initrd-%c %s: %s", 'a' + i, h->initrd[i], strerror(errno));
	k->cmdline = xstrdup(h->cmdline[i] ? h->cmdline[i] : now->cmdline);
	k->entry = h->entry[i] ? xstrdup(h->entry[i]) : NULL;
	return one_line("a cmdline", k->cmdline) || one_line("a label", k->label) ||
	       one_line("an image path", k->image) || one_line("an initrd path", k->initrd) ||
	       one_line("a boot entry", k->entry);
}

static int campaign_new(const struct ab_opts *o, struct campaign *c)
{
	const struct ab_host_opts *h = &o->host;
	const char *cmdlines[3];
	struct experiment exp;
	struct running now;
	bool bad;

	memset(c, 0, sizeof(*c));
	strbuf_init(&c->log);
	abhost_running(&now);
	for (int i = 0; i < 2; i++)
		if (side_resolve(o, i, &now, &c->k[i]))
			return MMB_EUSAGE;
	if (!strcmp(c->k[0].label, c->k[1].label))
		return error("ab --host: both kernels are labelled '%s'; give --base-name and "
			     "--new-name", c->k[0].label), MMB_EUSAGE;
	if (!strcmp(c->k[0].release, c->k[1].release) && !strcmp(c->k[0].cmdline, c->k[1].cmdline))
		return error("ab --host: A and B are one release (%s) with one cmdline: a boot "
			     "could not tell them apart", c->k[0].release), MMB_EUSAGE;
	/* a config `mmbench run` would refuse is refused now, not a boot later */
	experiment_init(&exp);
	bad = experiment_load(&exp, o->experiment) < 0;
	experiment_release(&exp);
	if (bad)
		return MMB_EUSAGE;
	cmdlines[0] = now.cmdline, cmdlines[1] = c->k[0].cmdline, cmdlines[2] = c->k[1].cmdline;
	if (abhost_safety(h->console, cmdlines, 3))
		return MMB_EUSAGE;
	c->config = realpath(o->experiment, NULL);
	if (!c->config)
		return error("ab --host: %s: %s", o->experiment, strerror(errno)), MMB_EUSAGE;
	c->db = realpath(db_default_path(o->vm.db_path), NULL);
	if (!c->db && close(open(db_default_path(o->vm.db_path), O_WRONLY | O_CREAT, 0644)) == 0)
		c->db = realpath(db_default_path(o->vm.db_path), NULL);
	if (!c->db)
		return error("ab --host: cannot use the database %s", db_default_path(o->vm.db_path));
	c->status = xstrdup("running");
	c->mode = xstrdup(h->reboot ? "reboot" : "kexec");
	c->rounds = o->rounds > 0 ? o->rounds : 3;
	c->seed = h->seed;
	c->plan = make_plan(c->rounds, c->seed);
	c->precision = o->precision;
	c->max_rounds = o->max_rounds;
	/* the running kernel as B: the mirror plan, so its first boot needs no kexec */
	if (abhost_running_side(c, &now) == 1)
		for (char *p = c->plan; *p; p++)
			*p = *p == 'A' ? 'B' : 'A';
	c->inflight = -1;
	c->max_failures = h->max_failures > 0 ? h->max_failures : 2;
	c->resume_s = h->resume_s > 0 ? h->resume_s : 900;
	c->home_release = xstrdup(now.release);
	c->home_cmdline = xstrdup(now.cmdline);
	if (one_line("the config path", c->config) || one_line("the db path", c->db))
		return MMB_EUSAGE;
	info("ab --host: plan %s (A = %s, B = %s%s), %s between boots", c->plan, c->k[0].label,
	     c->k[1].label, c->seed ? ", randomised" : "", c->mode);
	return campaign_save(c);
}

static int campaign_status(const struct campaign *c)
{
	printf("status %s\nplan %s (A = %s %s, B = %s %s)\nboots done %d of %zu\n", c->status,
	       c->plan, c->k[0].label, c->k[0].release, c->k[1].label, c->k[1].release, c->next,
	       strlen(c->plan));
	if (c->inflight >= 0)
		printf("in flight boot %d (%s)\n", c->inflight + 1,
		       c->k[c->plan[c->inflight] - 'A'].label);
	if (c->precision > 0)
		printf("precision +-%.3g%%: %d rounds planned so far (at most %d)\n",
		       100 * c->precision, c->rounds, c->max_rounds > 0 ? c->max_rounds : 30);
	printf("failures %d of %d allowed\n", c->failures, c->max_failures);
	if (c->log.len)
		fputs(c->log.buf, stdout);
	return 0;
}

/*
 * One campaign step at a time: the boot hook and a user's --resume or
 * --abort must not both drive it.  Held until exit; not inherited by the
 * runs (O_CLOEXEC), which take the machine lock themselves.
 */
static int campaign_lock(void)
{
	char *path = xasprintf("%s/ab-host.lock", envctl_state_dir());
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);

	if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) < 0) {
		error("ab --host: %s: %s", path, fd < 0 ? strerror(errno) :
		      "another `mmbench ab --host` is driving the campaign now");
		free(path);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	free(path);
	return 0;	/* fd kept open: the lock lasts as long as this process */
}

/* --abort of a campaign file that cannot be read: the hook and the file go. */
static int abort_damaged(void)
{
	char *unit = envctl_hook_path(), *path = state_file();
	int rc = envctl_remove_hook(unit) || envctl_lock() || envctl_restore_all() ? -1 : 0;

	if (unlink(path) < 0 && errno != ENOENT)
		rc = error("ab --host: cannot remove %s: %s", path, strerror(errno));
	else
		info("ab --host: the damaged campaign %s removed, and its hook", path);
	free(unit);
	free(path);
	return rc;
}

int abhost_run(const struct ab_opts *o)
{
	const struct ab_host_opts *h = &o->host;
	struct campaign c;
	struct running now;
	int rc;

	if (!h->status && campaign_lock())
		return -1;
	rc = campaign_load(&c);
	if (rc < 0) {
		campaign_free(&c);
		return h->abort ? abort_damaged() : -1;
	}
	if (h->status || h->abort || h->resume) {
		if (rc == 1) {
			info("ab --host: no campaign in %s", envctl_journal_path());
			campaign_free(&c);
			return h->status ? 0 : MMB_EUSAGE;
		}
		if (h->status) {
			rc = campaign_status(&c);
		} else if (h->abort || strcmp(c.status, "running")) {
			abhost_running(&now);
			rc = h->abort ? campaign_end(&c, "aborted", &now) : 0;
			if (!h->abort)
				info("ab --host: the campaign is %s; nothing to resume", c.status);
		} else {
			char *unit = envctl_hook_path();

			/* this boot's own entry: a crash here takes the hook away */
			if (access(unit, F_OK) == 0 && envctl_push_undo_hook(unit))
				rc = -1;
			free(unit);
			rc = rc ? rc : campaign_step(&c);
		}
		campaign_free(&c);
		return rc;
	}
	if (rc == 0 && !strcmp(c.status, "running")) {
		campaign_free(&c);
		return error("ab --host: a campaign is running (`mmbench ab --host --status`; "
			     "--abort to end it)");
	}
	campaign_free(&c);
	rc = campaign_new(o, &c);
	if (!rc)
		rc = campaign_step(&c);
	campaign_free(&c);
	return rc;
}

int abhost_opts_check(struct ab_opts *o, int argc, char **argv)
{
	const struct ab_host_opts *h = &o->host;
	int verbs = h->status + h->abort + h->resume;

	if (verbs > 1)
		return error("ab --host: --status, --abort and --resume go alone");
	if (verbs) {
		if (argc)
			return error("ab --host: no CONFIG.yaml with --status, --abort or --resume");
		return 0;
	}
	if (argc != 1)
		return error("ab --host: one CONFIG.yaml");
	o->experiment = argv[0];
	if (!h->kernel[0] || !h->kernel[1])
		return error("ab --host: --kernel-a and --kernel-b are both needed");
	if (o->build.tree)
		return error("ab --host: --tree is not for --host (kernel build first, then "
			     "--kernel-a LABEL)");
	if (ab_precision_opts_check(o, "ab --host"))
		return -1;
	if (h->reboot && (!h->entry[0] || !h->entry[1]))
		return error("ab --host: --reboot needs --entry-a and --entry-b (the boot "
			     "loader's entries of the two kernels)");
	return 0;
}
