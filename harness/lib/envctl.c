#include "envctl.h"
void envctl_recover(void) {}
