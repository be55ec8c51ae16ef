"""The one incident reader: an incident file (YAML, JSON, or PHH with a dispute) read and checked, every problem at once.

``load_incident`` / ``read_incident`` return a checked ``Incident`` or raise
``ProblemsError`` listing every problem (file:line:col, field, what is wrong,
the legal options). The fact builders (rulings/facts/situation.py and the modules it
calls) read the checked values and never refuse.
"""
from rulings.incident.checks import betting_params, check, ensure_checked  # noqa: F401
from rulings.incident.fields import (  # noqa: F401
    ACTIONS, STREETS, VARIANT_STREETS, each_act, each_request, focus, incident_from_data, incident_from_text,
    load_incident, read_incident,
)
from rulings.incident.model import Act, Award, Disputed, HandLog, Incident, Procedure, ShowdownEvent, Table  # noqa: F401
