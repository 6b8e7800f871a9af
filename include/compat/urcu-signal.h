/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* liburcu 0.13 lacks <urcu-signal.h>: the signal flavor with liburcu's API map. */
#define URCU_API_MAP
#include <urcu/urcu-signal.h>
