/*
 * The experiment's environment: knobs set through envctl's journal, zram
 * swap set up (and a hot-added device removed), the environment recorded
 * with the run (runner.h).
 */
#include "proc.h"
#include "runner.h"
#include "envctl.h"
#include "interference.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <unistd.h>

/* --------------------------------------------------------- environment */

static int set_env_knob(struct result_sink *sink, const char *key,
			const char *path, const char *value)
{
	char old[512];
	int ret;

	if (read_knob_value(path, old, sizeof(old)) < 0)
		return error("environment %s: %s does not exist on this kernel", key, path);
	ret = envctl_set_knob(path, value);
	if (ret == -EACCES || ret == -EPERM)
		return error("environment %s: %s needs root to change (%s -> %s)", key, path, old,
			     value);
	if (ret)
		return error("environment %s: cannot write '%s' to %s: %s", key, value, path,
			     strerror(-ret));
	/* re-checked after every iteration (a drift marks it disturbed) */
	knob_watch_add(key, path, value);
	/* "original" marks what this run changed: not a value that already was */
	return sink_env(sink, key, value, strcmp(old, value) ? old : NULL);
}

/* A free zram device; *added: the number of one hot-added for us (remove it after), else -1. */
static int find_free_zram(char *dev, size_t len, char *sys, size_t slen, int *added)
{
	*added = -1;
	for (int i = 0; i < 16; i++) {
		char path[128], buf[64];

		snprintf(path, sizeof(path), "/sys/block/zram%d/disksize", i);
		if (read_line_file(path, buf, sizeof(buf)) < 0)
			continue;
		if (strcmp(buf, "0"))
			continue;	/* in use */
		snprintf(dev, len, "/dev/zram%d", i);
		snprintf(sys, slen, "/sys/block/zram%d", i);
		return 0;
	}
	/* zram-control can add one */
	{
		char buf[32];

		if (read_line_file("/sys/class/zram-control/hot_add", buf, sizeof(buf)) > 0) {
			*added = atoi(buf);
			snprintf(dev, len, "/dev/zram%s", buf);
			snprintf(sys, slen, "/sys/block/zram%s", buf);
			return 0;
		}
	}
	return -1;
}

static int setup_zram_swap(const struct cfg_env *env, struct result_sink *sink)
{
	char dev[64], sys[64], path[128], size[32];
	const char *mkswap[] = { "mkswap", dev, NULL };
	const char *swapoff[] = { "swapoff", dev, NULL };
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	int ret, added;

	if (geteuid() != 0)
		return error("environment swap: setting up zram swap needs root");
	if (find_free_zram(dev, sizeof(dev), sys, sizeof(sys), &added))
		return error("environment swap: no free zram device (is the zram module loaded? `modprobe zram`)");
	/* a device hot-added for this run goes when it is undone (after its reset) */
	if (added >= 0) {
		snprintf(size, sizeof(size), "%d", added);
		if (envctl_push_undo_write("/sys/class/zram-control/hot_remove", size))
			return -1;
	}
	/* undo order, replayed backwards: reset the device last */
	snprintf(path, sizeof(path), "%s/reset", sys);
	if (envctl_push_undo_write(path, "1"))
		return -1;
	if (env->zram_comp) {
		snprintf(path, sizeof(path), "%s/comp_algorithm", sys);
		if ((ret = write_file_str(path, env->zram_comp)))
			return error("environment swap: zram compressor '%s': %s", env->zram_comp,
				     strerror(-ret));
	}
	snprintf(path, sizeof(path), "%s/disksize", sys);
	snprintf(size, sizeof(size), "%lld", (long long)env->zram_bytes);
	if ((ret = write_file_str(path, size)))
		return error("environment swap: cannot size %s: %s", dev, strerror(-ret));
	/* mkswap's report goes to out: shown only if it fails */
	if (run_argv(mkswap, &out, &err))
		ret = error("environment swap: mkswap %s failed: %s", dev,
			    strtrim(err.len ? err.buf : out.buf ? out.buf : ""));
	else if (envctl_push_undo(swapoff))
		ret = -1;
	/* the syscall, not swapon(8): busybox's (an arm64 guest's) has no -p */
	else if (swapon(dev, SWAP_FLAG_PREFER | (32767 << SWAP_FLAG_PRIO_SHIFT)) < 0)
		ret = error("environment swap: swapon %s failed: %s", dev, strerror(errno));
	strbuf_release(&out);
	strbuf_release(&err);
	if (ret)
		return -1;
	sink_env(sink, "swap.zram", dev, NULL);
	return sink_env(sink, "swap.zram_bytes", size, "0");
}

int runner_env_apply(const struct experiment *e, struct result_sink *sink)
{
	const struct cfg_env *env = &e->env;
	char path[256], key[64];

	if (env->thp_enabled &&
	    set_env_knob(sink, "thp.enabled", THP_DIR "/enabled", env->thp_enabled))
		return -1;
	if (env->thp_defrag &&
	    set_env_knob(sink, "thp.defrag", THP_DIR "/defrag", env->thp_defrag))
		return -1;
	for (size_t i = 0; i < env->nmthp; i++) {
		snprintf(path, sizeof(path), THP_DIR "/hugepages-%ukB/enabled", env->mthp[i].kb);
		snprintf(key, sizeof(key), "mthp.%ukB.enabled", env->mthp[i].kb);
		if (set_env_knob(sink, key, path, env->mthp[i].value))
			return -1;
	}
	/*
	 * "thp: never" means no huge pages of any size: a per-size mTHP knob
	 * left at always/madvise would still hand out large folios.  Sizes the
	 * experiment lists itself keep their own value.
	 */
	if (env->thp_enabled && !strcmp(env->thp_enabled, "never")) {
		DIR *d = opendir(THP_DIR);
		struct dirent *de;
		unsigned int kb;

		while (d && (de = readdir(d))) {
			bool listed = false;

			if (sscanf(de->d_name, "hugepages-%ukB", &kb) != 1)
				continue;
			for (size_t i = 0; i < env->nmthp; i++)
				listed |= env->mthp[i].kb == kb;
			snprintf(path, sizeof(path), THP_DIR "/hugepages-%ukB/enabled", kb);
			snprintf(key, sizeof(key), "mthp.%ukB.enabled", kb);
			/* shmem-only sizes (no anon knob to write) are not ours to touch */
			if (listed || access(path, W_OK) < 0)
				continue;
			if (set_env_knob(sink, key, path, "never")) {
				closedir(d);
				return -1;
			}
		}
		if (d)
			closedir(d);
	}
	if (env->governor) {
		int ncpu = online_cpus();
		bool any = false;

		for (int c = 0; c < ncpu; c++) {
			snprintf(path, sizeof(path),
				 "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", c);
			if (access(path, F_OK) < 0)
				continue;
			any = true;
			snprintf(key, sizeof(key), "cpufreq.cpu%d.governor", c);
			if (set_env_knob(sink, key, path, env->governor))
				return -1;
		}
		if (!any) {
			info("governor '%s' asked for, but this machine has no cpufreq (a VM?); going on without",
			     env->governor);
			sink_env(sink, "cpufreq.governor.requested", env->governor, NULL);
		}
	}
	if (env->zram_bytes > 0 && setup_zram_swap(env, sink))
		return -1;
	if (env->pin_cpu)
		sink_env(sink, "pin_cpu", env->pin_cpu, NULL);
	if (env->drop_caches)
		sink_env(sink, "drop_caches", "1", NULL);
	return 0;
}

int runner_env_record(struct result_sink *sink)
{
	struct env_item *items;
	const char **keys, **values;
	size_t n;
	int ret;

	env_snapshot(&items, &n);
	keys = xcalloc(n ? n : 1, sizeof(*keys));
	values = xcalloc(n ? n : 1, sizeof(*values));
	for (size_t i = 0; i < n; i++) {
		keys[i] = items[i].key;
		values[i] = items[i].value;
	}
	ret = sink_env_found(sink, keys, values, n);
	free(keys);
	free(values);
	env_items_free(items, n);
	return ret;
}
