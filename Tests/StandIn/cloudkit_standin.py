#!/usr/bin/env python3
"""An independent stand-in for CloudKit Web Services' public database, for tests.

Written from Apple's "CloudKit Web Services Reference" and the facts gathered in
shared/reference/cloudkit-web-services.md, without reading the toolkit's own emulator
(Sources/TribeBoardCloudKitEmulator), so that a mistake both the client and the emulator make
shows up here. Python 3 standard library only (plus the `openssl` command for signatures).

Usage:
  cloudkit_standin.py --port PORT
      [--key KEYID[=PUBLIC.pem][@DEVELOPER]]...   server-to-server keys; each acts as DEVELOPER
                                                  (default `_developer_KEYID`: every key its own)
      [--user NAME=WEBAUTHTOKEN]...               app users (`?ckAPIToken=…&ckWebAuthToken=TOKEN`)
      [--index-lag SECONDS]                       queries miss records written less than this ago
      [--create-existing EXISTS|CONFLICT|ACCESS_DENIED]   what a create of a taken name answers
      [--strict-types]                            a query on a type never written is BAD_REQUEST
      [--latency-ms N]                            each response waits N ms
      [--seed FILE]                               {"records": [record dictionaries]} to start with

      [--exit-on-eof]                             exit when standard input reaches end of file

Prints `listening PORT` on stdout once it accepts connections. Exits at once on SIGTERM/SIGINT,
even when its launcher had blocked them (a Swift test spawns it from a thread that blocks every
signal, and a blocked mask survives exec). With --exit-on-eof it also exits when its standard
input closes: a launcher that keeps the write end of a pipe frees it by closing it, and the kernel
closes it when the launcher dies, even by SIGKILL, so no stand-in outlives its test run.

What it models, with the source of each rule:
- Routes `/database/1/{container}/{environment}/{database}/{operation}`: records/modify,
  records/lookup, records/query, users/caller, zones/list. Only the public database: the private
  and shared ones answer AUTHENTICATION_REQUIRED (421) to a server-to-server key.
- Authentication: the three `X-Apple-CloudKit-Request-*` headers; when the key was given a public
  key, the signature over `date:base64(sha256(body)):subpath` is verified with `openssl dgst`;
  a date more than 300 s from the clock, an unknown key or a bad signature is
  AUTHENTICATION_FAILED (401). App users: `ckAPIToken` and `ckWebAuthToken` in the query string
  (tokens do not rotate here; on Apple's servers each response carries the next web auth token).
- The public database's default security roles: every authenticated caller reads every record;
  any caller may create records of any type; only a record's creator may update, replace or
  delete it (ACCESS_DENIED "WRITE operation not permitted" otherwise).
- Record names unique in the zone across types; a create of a taken name is refused per record
  (EXISTS by default; which code Apple sends is not documented, hence --create-existing). Names
  must be ASCII, at most 255 characters and not start with an underscore (BAD_REQUEST).
- update/replace need the current `recordChangeTag` (CONFLICT otherwise); forceUpdate and
  forceReplace skip the tag check and create a missing record; delete takes the record name (a
  change tag, when sent, is checked: an assumption, Apple documents delete with the name alone);
  forceDelete skips it. Operations apply in order, each on its own (no atomic batches in
  `_defaultZone`); at most 200 operations (BAD_REQUEST beyond).
- REFERENCE fields must name an existing record (VALIDATING_REFERENCE_ERROR, 412); deleting a
  record deletes the records that reference it with action DELETE_SELF.
- records/lookup reads the records themselves (latest write); records/query reads an index that
  lags by --index-lag; filters EQUALS, NOT_EQUALS, IN, NOT_IN (list values), BEGINS_WITH, NOT_BEGINS_WITH,
  LESS_THAN(_OR_EQUALS), GREATER_THAN(_OR_EQUALS) on fields, `___recordID` (REFERENCE value) and
  `___createTime`; `sortBy` on one field; `resultsLimit` at most 200; opaque continuation markers.
Not modelled: schemas and indexes (every field is queryable), assets, zones other than
`_defaultZone`, subscriptions, throttling.
"""

import argparse
import base64
import calendar
import hashlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, unquote, urlparse

MAX_OPERATIONS = 200
MAX_RESULTS = 200
MAX_BODY = 2_000_000


class Refusal(Exception):
    """A CloudKit error: for the whole request, or for one record of a batch."""

    def __init__(self, status, code, reason, record_name=None):
        super().__init__(reason)
        self.status, self.code, self.reason, self.record_name = status, code, reason, record_name

    def body(self):
        body = {"uuid": str(uuid.uuid4()), "serverErrorCode": self.code, "reason": self.reason}
        if self.record_name is not None:
            body["recordName"] = self.record_name
        return body


class Store:
    """One container environment's `_defaultZone`."""

    def __init__(self, index_lag, create_existing, strict_types):
        self.records = {}          # name -> record dictionary as the wire shows it
        self.written_at = {}       # name -> monotonic time of the last write (for the index lag)
        self.types_seen = set()
        self.index_lag = index_lag
        self.create_existing = create_existing
        self.strict_types = strict_types
        self.tag_counter = 0
        self.lock = threading.Lock()

    def _tag(self):
        self.tag_counter += 1
        return format(self.tag_counter, "x")

    @staticmethod
    def check_name(name):
        if not isinstance(name, str) or not name:
            raise Refusal(400, "BAD_REQUEST", "recordName is missing", name)
        if len(name) > 255 or not name.isascii() or name.startswith("_"):
            raise Refusal(400, "BAD_REQUEST",
                          "Invalid recordName: must contain only ASCII characters, must not exceed "
                          "255 characters and must not start with an underscore", name)

    def _stamp(self, caller):
        return {"timestamp": int(time.time() * 1000), "userRecordName": caller}

    def _check_references(self, fields, name):
        for field in fields.values():
            if not isinstance(field, dict) or field.get("type") not in ("REFERENCE", "REFERENCE_LIST"):
                continue
            values = field.get("value")
            values = values if isinstance(values, list) else [values]
            for value in values:
                target = value.get("recordName") if isinstance(value, dict) else None
                if target is not None and target not in self.records and target != name:
                    raise Refusal(412, "VALIDATING_REFERENCE_ERROR",
                                  "Reference to a record that does not exist: %s" % target, name)

    def modify(self, operations, caller):
        if not isinstance(operations, list):
            raise Refusal(400, "BAD_REQUEST", "operations must be a list")
        if len(operations) > MAX_OPERATIONS:
            raise Refusal(400, "BAD_REQUEST", "Too many operations: at most %d" % MAX_OPERATIONS)
        results = []
        with self.lock:
            for operation in operations:
                try:
                    results.extend(self._apply(operation, caller))
                except Refusal as refusal:
                    results.append(refusal.body())
        return {"records": results}

    def _apply(self, operation, caller):
        kind = operation.get("operationType")
        record = operation.get("record") or {}
        name = record.get("recordName")
        if kind in ("create", "forceReplace", "forceUpdate") and name is None:
            name = str(uuid.uuid4()).upper()
        self.check_name(name)
        existing = self.records.get(name)
        if kind in ("delete", "forceDelete"):
            if existing is None:
                raise Refusal(404, "NOT_FOUND", "Record not found", name)
            if existing["created"]["userRecordName"] != caller:
                raise Refusal(403, "ACCESS_DENIED", "WRITE operation not permitted", name)
            tag = record.get("recordChangeTag")
            if kind == "delete" and tag is not None and tag != existing["recordChangeTag"]:
                raise Refusal(409, "CONFLICT", "record changed since it was read", name)
            self._cascade(name)
            return [{"recordName": name, "deleted": True}]
        if kind not in ("create", "update", "replace", "forceUpdate", "forceReplace"):
            raise Refusal(400, "BAD_REQUEST", "Unknown operationType: %s" % kind, name)
        fields = record.get("fields") or {}
        record_type = record.get("recordType") or (existing or {}).get("recordType")
        if not record_type:
            raise Refusal(400, "BAD_REQUEST", "recordType is missing", name)
        if kind == "create" and existing is not None:
            reasons = {"EXISTS": (409, "record already exists"),
                       "CONFLICT": (409, "record to insert already exists"),
                       "ACCESS_DENIED": (403, "WRITE operation not permitted")}
            status, reason = reasons[self.create_existing]
            raise Refusal(status, self.create_existing, reason, name)
        if kind in ("update", "replace"):
            if existing is None:
                raise Refusal(404, "NOT_FOUND", "Record not found", name)
            if record.get("recordChangeTag") != existing["recordChangeTag"]:
                raise Refusal(409, "CONFLICT", "oplock error: record changed", name)
        if existing is not None:
            if existing["created"]["userRecordName"] != caller:
                raise Refusal(403, "ACCESS_DENIED", "WRITE operation not permitted", name)
            if existing["recordType"] != record_type:
                raise Refusal(400, "BAD_REQUEST", "recordType does not match the record's", name)
        self._check_references(fields, name)
        if existing is not None and kind in ("update", "forceUpdate"):
            merged = dict(existing["fields"])
            merged.update(fields)
            fields = merged
        stamp = self._stamp(caller)
        saved = {"recordName": name, "recordType": record_type, "fields": fields,
                 "recordChangeTag": self._tag(),
                 "created": existing["created"] if existing else stamp, "modified": stamp,
                 "zoneID": {"zoneName": "_defaultZone"}}
        self.records[name] = saved
        self.written_at[name] = time.monotonic()
        self.types_seen.add(record_type)
        return [saved]

    def _cascade(self, name):
        """Deletes `name` and, as DELETE_SELF references promise, whatever points at it (the
        response still has one entry per operation: the cascade is not reported)."""
        self.records.pop(name, None)
        self.written_at.pop(name, None)
        for other_name, other in list(self.records.items()):
            if other_name not in self.records:
                continue
            for field in other["fields"].values():
                if not isinstance(field, dict) or field.get("type") != "REFERENCE":
                    continue
                value = field.get("value") or {}
                if value.get("recordName") == name and value.get("action") == "DELETE_SELF":
                    self._cascade(other_name)
                    break

    def lookup(self, wanted, desired_keys):
        results = []
        with self.lock:
            for entry in wanted or []:
                name = entry.get("recordName") if isinstance(entry, dict) else None
                record = self.records.get(name)
                if record is None:
                    results.append(Refusal(404, "NOT_FOUND", "Record not found", name).body())
                else:
                    results.append(select_keys(record, desired_keys))
        return {"records": results}

    def query(self, body):
        query = body.get("query") or {}
        record_type = query.get("recordType")
        limit = body.get("resultsLimit", MAX_RESULTS)
        if not isinstance(limit, int) or limit < 1 or limit > MAX_RESULTS:
            raise Refusal(400, "BAD_REQUEST", "resultsLimit must be between 1 and %d" % MAX_RESULTS)
        with self.lock:
            if self.strict_types and record_type not in self.types_seen:
                raise Refusal(400, "BAD_REQUEST", "Did not find record type: %s" % record_type)
            now = time.monotonic()
            visible = [r for n, r in self.records.items()
                       if r["recordType"] == record_type
                       and now - self.written_at.get(n, 0) >= self.index_lag]
            for condition in query.get("filterBy") or []:
                visible = [r for r in visible if matches(r, condition)]
            visible.sort(key=sort_key(query.get("sortBy")))
            start = decode_marker(body.get("continuationMarker"))
            page = visible[start:start + limit]
            answer = {"records": [select_keys(r, body.get("desiredKeys")) for r in page]}
            if start + limit < len(visible):
                answer["continuationMarker"] = encode_marker(start + limit)
        return answer


def select_keys(record, desired_keys):
    if not desired_keys:
        return record
    trimmed = dict(record)
    trimmed["fields"] = {k: v for k, v in record["fields"].items() if k in desired_keys}
    return trimmed


def field_value(record, name):
    if name == "___recordID":
        return record["recordName"]
    if name == "___createTime":
        return record["created"]["timestamp"]
    if name == "___modTime":
        return record["modified"]["timestamp"]
    field = record["fields"].get(name)
    if not isinstance(field, dict):
        return None
    value = field.get("value")
    if isinstance(value, dict) and "recordName" in value:
        return value["recordName"]
    return value


def plain(value):
    """A filter's value as comparable data: a REFERENCE compares by its record name."""
    if isinstance(value, dict) and "recordName" in value:
        return value["recordName"]
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def matches(record, condition):
    comparator = condition.get("comparator")
    wanted = plain((condition.get("fieldValue") or {}).get("value"))
    actual = field_value(record, condition.get("fieldName"))
    if comparator == "EQUALS":
        return actual == wanted
    if comparator == "NOT_EQUALS":
        return actual != wanted
    if comparator == "IN":
        return isinstance(wanted, list) and actual in wanted
    if comparator == "NOT_IN":
        return isinstance(wanted, list) and actual not in wanted
    if comparator == "BEGINS_WITH":
        return isinstance(actual, str) and isinstance(wanted, str) and actual.startswith(wanted)
    if comparator == "NOT_BEGINS_WITH":
        # Apple documents the comparator, not whether a record without the field matches; here
        # it does (as NOT_EQUALS does for a missing value).
        return not (isinstance(actual, str) and isinstance(wanted, str) and actual.startswith(wanted))
    if actual is None or wanted is None:
        return False
    try:
        return {"LESS_THAN": actual < wanted, "LESS_THAN_OR_EQUALS": actual <= wanted,
                "GREATER_THAN": actual > wanted,
                "GREATER_THAN_OR_EQUALS": actual >= wanted}[comparator]
    except (KeyError, TypeError):
        raise Refusal(400, "BAD_REQUEST", "Unsupported comparator: %s" % comparator)


def sort_key(sort_by):
    if not sort_by:
        return lambda r: r["recordName"]
    field = sort_by[0].get("fieldName")
    return lambda r: (field_value(r, field) is None, str(field_value(r, field)), r["recordName"])


def encode_marker(offset):
    return base64.b64encode(json.dumps({"offset": offset, "nonce": uuid.uuid4().hex}).encode()).decode()


def decode_marker(marker):
    if marker is None:
        return 0
    try:
        return int(json.loads(base64.b64decode(marker))["offset"])
    except (ValueError, KeyError, TypeError):
        raise Refusal(400, "BAD_REQUEST", "Invalid continuationMarker")


class Identities:
    def __init__(self, keys, users):
        self.keys = {}   # key id -> (public pem path or None, developer name)
        for entry in keys:
            developer = None
            if "@" in entry:
                entry, developer = entry.rsplit("@", 1)
            key_id, _, pem = entry.partition("=")
            self.keys[key_id] = (pem or None, developer or "_developer_" + key_id)
        self.users = {}
        for entry in users:
            name, _, token = entry.partition("=")
            self.users[token] = name

    def caller(self, headers, query, body, subpath):
        params = parse_qs(query)
        if "ckWebAuthToken" in params or "ckAPIToken" in params:
            token = (params.get("ckWebAuthToken") or [""])[0]
            if not (params.get("ckAPIToken") or [""])[0] or token not in self.users:
                raise Refusal(401, "AUTHENTICATION_FAILED", "Authentication failed: unknown token")
            return self.users[token], False
        key_id = headers.get("X-Apple-CloudKit-Request-KeyID")
        date = headers.get("X-Apple-CloudKit-Request-ISO8601Date")
        signature = headers.get("X-Apple-CloudKit-Request-SignatureV1")
        if not key_id or not date or not signature:
            raise Refusal(421, "AUTHENTICATION_REQUIRED", "Request needs authentication")
        if key_id not in self.keys:
            raise Refusal(401, "AUTHENTICATION_FAILED", "Authentication failed: unknown key")
        try:
            signed_at = calendar.timegm(time.strptime(date, "%Y-%m-%dT%H:%M:%SZ"))
        except ValueError:
            raise Refusal(401, "AUTHENTICATION_FAILED", "Authentication failed: bad date")
        if abs(signed_at - time.time()) > 300:
            raise Refusal(401, "AUTHENTICATION_FAILED", "Authentication failed: request date is off")
        pem, developer = self.keys[key_id]
        if pem is not None:
            message = "%s:%s:%s" % (date, base64.b64encode(hashlib.sha256(body).digest()).decode(), subpath)
            if not verify(pem, message.encode(), signature):
                raise Refusal(401, "AUTHENTICATION_FAILED", "Authentication failed: bad signature")
        return developer, True


def verify(pem, message, signature_b64):
    try:
        signature = base64.b64decode(signature_b64, validate=True)
    except ValueError:
        return False
    with tempfile.NamedTemporaryFile() as sig:
        sig.write(signature)
        sig.flush()
        done = subprocess.run(["openssl", "dgst", "-sha256", "-verify", pem, "-signature", sig.name],
                              input=message, capture_output=True)
        return done.returncode == 0


class StandIn:
    def __init__(self, options):
        self.options = options
        self.identities = Identities(options.key, options.user)
        self.stores = {}
        self.stores_lock = threading.Lock()

    def store(self, container, environment):
        with self.stores_lock:
            key = (container, environment)
            if key not in self.stores:
                self.stores[key] = Store(self.options.index_lag, self.options.create_existing,
                                         self.options.strict_types)
            return self.stores[key]

    def answer(self, method, raw_path, headers, body):
        url = urlparse(raw_path)
        parts = unquote(url.path).strip("/").split("/")
        if len(parts) < 6 or parts[0] != "database" or parts[1] != "1":
            raise Refusal(404, "NOT_FOUND", "No such endpoint")
        container, environment, database = parts[2], parts[3], parts[4]
        operation = "/".join(parts[5:])
        if environment not in ("development", "production"):
            raise Refusal(400, "BAD_REQUEST", "Unknown environment: %s" % environment)
        caller, is_key = self.identities.caller(headers, url.query, body, url.path)
        if database != "public":
            if is_key:
                raise Refusal(421, "AUTHENTICATION_REQUIRED",
                              "The %s database needs a user's web auth token" % database)
            raise Refusal(400, "BAD_REQUEST", "The stand-in serves the public database only")
        if operation == "users/caller":
            return {"users": [{"userRecordName": caller}]}
        if operation == "zones/list":
            return {"zones": [{"zoneID": {"zoneName": "_defaultZone"}}]}
        if method != "POST":
            raise Refusal(400, "BAD_REQUEST", "%s needs POST" % operation)
        try:
            request = json.loads(body or b"{}")
        except ValueError:
            raise Refusal(400, "BAD_REQUEST", "Request body is not JSON")
        if not isinstance(request, dict):
            raise Refusal(400, "BAD_REQUEST", "Request body is not a JSON object")
        zone = (request.get("zoneID") or {}).get("zoneName", "_defaultZone")
        if zone != "_defaultZone":
            raise Refusal(404, "ZONE_NOT_FOUND", "Zone not found: %s" % zone)
        store = self.store(container, environment)
        if operation == "records/modify":
            return store.modify(request.get("operations"), caller)
        if operation == "records/lookup":
            return store.lookup(request.get("records"), request.get("desiredKeys"))
        if operation == "records/query":
            return store.query(request)
        raise Refusal(404, "NOT_FOUND", "Unknown operation: %s" % operation)


def handler_for(standin):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def _serve(self, method):
            length = int(self.headers.get("Content-Length") or 0)
            if length > MAX_BODY:
                self._send(400, Refusal(400, "BAD_REQUEST", "Request body too large").body())
                return
            body = self.rfile.read(length) if length > 0 else b""
            if standin.options.latency_ms:
                time.sleep(standin.options.latency_ms / 1000)
            try:
                self._send(200, standin.answer(method, self.path, self.headers, body))
            except Refusal as refusal:
                self._send(refusal.status, refusal.body())

        def _send(self, status, payload):
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json; charset=UTF-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self):
            self._serve("POST")

        def do_GET(self):
            self._serve("GET")

    return Handler


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--key", action="append", default=[])
    parser.add_argument("--user", action="append", default=[])
    parser.add_argument("--index-lag", type=float, default=0)
    parser.add_argument("--create-existing", choices=["EXISTS", "CONFLICT", "ACCESS_DENIED"], default="EXISTS")
    parser.add_argument("--strict-types", action="store_true")
    parser.add_argument("--latency-ms", type=int, default=0)
    parser.add_argument("--seed")
    parser.add_argument("--container", default="iCloud.net.dataenvy.TribeBoard")
    parser.add_argument("--environment", default="development")
    parser.add_argument("--exit-on-eof", action="store_true")
    options = parser.parse_args()
    exit_on_signals()
    if options.exit_on_eof:
        threading.Thread(target=exit_on_eof, daemon=True).start()
    standin = StandIn(options)
    if options.seed:
        with open(options.seed, encoding="utf-8") as seed:
            store = standin.store(options.container, options.environment)
            for record in json.load(seed).get("records", []):
                record.setdefault("recordChangeTag", store._tag())
                record.setdefault("created", {"timestamp": int(time.time() * 1000),
                                              "userRecordName": "_seeded_app_user"})
                record.setdefault("modified", record["created"])
                record.setdefault("fields", {})
                store.records[record["recordName"]] = record
                store.written_at[record["recordName"]] = 0
                store.types_seen.add(record["recordType"])
    server = ThreadingHTTPServer(("127.0.0.1", options.port), handler_for(standin))
    server.daemon_threads = True
    print("listening %d" % server.server_address[1], flush=True)
    server.serve_forever()
    return 0


def exit_on_signals():
    """Exits on SIGTERM/SIGINT without waiting for requests in flight: the stand-in keeps nothing
    worth saving. The signals are unblocked first: a handler never runs for a blocked signal."""
    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, lambda *_: os._exit(0))
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})


def exit_on_eof():
    """Reads standard input to its end, then exits: the launcher closed it, or died."""
    while os.read(0, 4096):
        pass
    os._exit(0)


if __name__ == "__main__":
    sys.exit(main())
