/* One function per command, one file per command: builtin-<cmd>.c */
#ifndef MMB_BUILTIN_H
#define MMB_BUILTIN_H

int cmd_run(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_rm(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_kernel(int argc, char **argv);
int cmd_vm(int argc, char **argv);
int cmd_ab(int argc, char **argv);
int cmd_reproduce(int argc, char **argv);
int cmd_fleet(int argc, char **argv);
int cmd_help(int argc, char **argv);
int cmd_restore(int argc, char **argv);

/* Print the help text of a command (shared by --help and `mmbench help`). */
int help_show(const char *cmd);

#endif
