/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* liburcu 0.13 lacks <urcu-mb.h>: the mb flavor with liburcu's API map. */
#define URCU_API_MAP
#include <urcu/urcu-mb.h>
