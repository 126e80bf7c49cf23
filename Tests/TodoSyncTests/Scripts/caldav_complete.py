"""Completes one task the way python-caldav (PyPI's `caldav`, the library
behind calendar-cli and many scripts) completes a repeating task.

    caldav_complete.py LIST_URL USER PASSWORD UID MODE COMPLETED_AT

MODE is the library's rrule_mode: `safe` (a completed copy of its own, the
series moved on) or `thisandfuture` (instances with RECURRENCE-ID).
COMPLETED_AT is an ISO 8601 time with its zone (2030-12-03T18:00:00+00:00).
"""
import sys
from datetime import datetime

import caldav

url, user, password, uid, mode, completed_at = sys.argv[1:7]
with caldav.DAVClient(url=url, username=user, password=password) as client:
    task = client.calendar(url=url).todo_by_uid(uid)
    task.complete(completion_timestamp=datetime.fromisoformat(completed_at), handle_rrule=True, rrule_mode=mode)
