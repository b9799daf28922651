/* The options every command that boots a VM takes (vm run, ab, reproduce). */
#ifndef MMB_VM_OPTIONS_H
#define MMB_VM_OPTIONS_H

#include "parse-options.h"
#include "vmrun.h"

#define VM_OPTIONS(o)									\
	OPT_CALLBACK(0, "cpus", &(o)->cpus, "N", "guest CPUs", vm_opt_cpus),		\
	OPT_CALLBACK(0, "mem", &(o)->mem_bytes, "SIZE", "guest memory", vm_opt_mem),	\
	OPT_CALLBACK(0, "accel", &(o)->accel, "A", "auto, kvm or tcg", vm_opt_accel),	\
	OPT_CALLBACK(0, "clock", &(o)->clock, "C",					\
		     "real (host time) or virtual (guest instructions, TCG)", vm_opt_clock),	\
	OPT_CALLBACK(0, "machine", &(o)->machine, "M", "auto, q35 or microvm",		\
		     vm_opt_machine),							\
	OPT_CALLBACK(0, "arch", &(o)->arch, "ARCH", "the guest's: x86_64 or arm64",	\
		     vm_opt_arch),							\
	OPT_CALLBACK(0, "timeout", &(o)->timeout_s, "S", "whole boot time limit",	\
		     vm_opt_secs),							\
	OPT_CALLBACK(0, "hang-timeout", &(o)->hang_s, "S",				\
		     "silence that counts as a hang", vm_opt_secs),			\
	OPT_CALLBACK(0, "boot-timeout", &(o)->boot_s, "S",				\
		     "time until the guest's first message", vm_opt_secs),		\
	OPT_INT_RANGE(0, "iterations", &(o)->iterations, 1, 100000, "N",		\
		      "passed to mmbench run"),						\
	OPT_BOOL(0, "quick", &(o)->quick, "passed to mmbench run"),			\
	OPT_BOOL(0, "profile", &(o)->profile,						\
		 "a profile of each variant in the guest (run --profile)"),		\
	OPT_CALLBACK(0, "zram", &(o)->zram_bytes, "SIZE", "zram swap in the guest",	\
		     vm_opt_size),							\
	OPT_STRING(0, "qemu", &(o)->qemu, "PATH", "QEMU binary")

#endif
