"""A posting may only be for a player seated at its hand's table: enforced by the database itself.

Django has no cross-table CHECK, so a trigger does it on both databases; the services never write such a
posting, so this guards against bugs and hand-made SQL, never against users.
"""

from django.db import migrations

SQLITE_CREATE = """
CREATE TRIGGER posting_player_seated_{event} BEFORE {event} ON ledger_posting
WHEN NOT EXISTS (
    SELECT 1 FROM ledger_seat s JOIN ledger_hand h ON h.table_id = s.table_id
    WHERE h.id = NEW.hand_id AND s.player_id = NEW.player_id
)
BEGIN SELECT RAISE(ABORT, 'posting for a player not seated at the table'); END;
"""

POSTGRES_CREATE = """
CREATE FUNCTION ledger_posting_player_seated() RETURNS trigger AS $$
BEGIN
    IF NOT EXISTS (
        SELECT 1 FROM ledger_seat s JOIN ledger_hand h ON h.table_id = s.table_id
        WHERE h.id = NEW.hand_id AND s.player_id = NEW.player_id
    ) THEN
        RAISE EXCEPTION 'posting for a player not seated at the table' USING ERRCODE = '23514';
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER posting_player_seated BEFORE INSERT OR UPDATE ON ledger_posting
FOR EACH ROW EXECUTE FUNCTION ledger_posting_player_seated();
"""


def create(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "sqlite":
        for event in ("INSERT", "UPDATE"):
            schema_editor.execute(SQLITE_CREATE.format(event=event))
    elif vendor == "postgresql":
        schema_editor.execute(POSTGRES_CREATE)


def drop(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "sqlite":
        for event in ("INSERT", "UPDATE"):
            schema_editor.execute(f"DROP TRIGGER IF EXISTS posting_player_seated_{event}")
    elif vendor == "postgresql":
        schema_editor.execute("DROP TRIGGER IF EXISTS posting_player_seated ON ledger_posting")
        schema_editor.execute("DROP FUNCTION IF EXISTS ledger_posting_player_seated()")


class Migration(migrations.Migration):
    dependencies = [("ledger", "0002_eveningevent_settlement_transfer")]

    operations = [migrations.RunPython(create, drop)]
