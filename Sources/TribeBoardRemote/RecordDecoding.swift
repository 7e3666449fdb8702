import TribeBoardCloudKit
import TribeBoardJoinKit

/// Records read back, beside `RecordMapping` which writes them: a Web Services record becomes the
/// join kit's `JoinRecord`, and the kit's decoders (`FamilyRecord`, `ProfileRecord`,
/// `MembershipRecord`) read it exactly as the app's `updateFromCKRecord` does, so "the app can
/// read this" has one definition.
package enum RecordDecoding {
    package static func joinRecord(_ record: CloudKitRecord) -> JoinRecord {
        var fields: [String: JoinField] = [:]
        for (key, field) in record.fields ?? [:] {
            if let value = joinField(field) { fields[key] = value }
        }
        return JoinRecord(name: record.recordName, type: record.recordType ?? "", fields: fields,
                          creator: record.created?.userRecordName)
    }

    /// The field as the app's decoder sees it; nil for a type the app never reads.
    static func joinField(_ field: CloudKitRecord.Field) -> JoinField? {
        switch (field.type, field.value) {
        case ("STRING", .string(let text)), (nil, .string(let text)):
            return .string(text)
        case ("TIMESTAMP", .number(let number)), (nil, .number(let number)):
            guard number.isFinite, abs(number) < 9e15 else { return nil }
            return .timestamp(milliseconds: Int64(number))
        case ("REFERENCE", .object(let object)), (nil, .object(let object)):
            return object["recordName"]?.string.map(JoinField.reference)
        default:
            return nil
        }
    }

    package static func cloudKitRecord(_ record: JoinRecord) -> CloudKitRecord {
        var fields: [String: CloudKitRecord.Field] = [:]
        for (key, field) in record.fields {
            switch field {
            case .string(let text): fields[key] = .string(text)
            case .timestamp(let milliseconds): fields[key] = .timestamp(milliseconds: milliseconds)
            case .reference(let name): fields[key] = .reference(name)
            }
        }
        return CloudKitRecord(recordName: record.name, recordType: record.type, fields: fields)
    }

    package static func family(_ record: CloudKitRecord) -> FamilyRecord? {
        FamilyRecord(joinRecord(record))
    }
    package static func profile(_ record: CloudKitRecord) -> ProfileRecord? {
        ProfileRecord(joinRecord(record))
    }
    package static func membership(_ record: CloudKitRecord) -> MembershipRecord? {
        MembershipRecord(joinRecord(record))
    }
}

/// The join kit's database over the toolkit's Web Services client: the public database's default
/// zone, with the client's retries and errors (`CloudKitError`, `CloudKitRecordError`).
package struct WebServicesJoinDatabase: JoinDatabase {
    package let client: CloudKitClient

    package init(client: CloudKitClient) { self.client = client }

    package func fetch(_ names: [String]) async throws -> [String: JoinRecord] {
        var found: [String: JoinRecord] = [:]
        for result in try await client.lookup(recordNames: names) {
            switch result {
            case .record(let record): found[record.recordName] = RecordDecoding.joinRecord(record)
            case .failure(let failure) where failure.code == .notFound: continue
            case .failure(let failure): throw failure
            }
        }
        return found
    }

    package func create(_ record: JoinRecord) async throws -> JoinCreateResult {
        let results = try await client.modify([
            CloudKitOperation(.create, RecordDecoding.cloudKitRecord(record))
        ])
        switch results.first {
        case .record(let stored)?:
            return .created(RecordDecoding.joinRecord(stored))
        case .failure(let failure)? where failure.code == .exists || failure.code == .conflict:
            return .alreadyExists
        case .failure(let failure)? where failure.code == .accessDenied:
            // Which answer a create of another creator's name gets (EXISTS or ACCESS_DENIED) is
            // not documented: a record there under that name means the name is taken.
            if try await !fetch([record.name]).isEmpty { return .alreadyExists }
            throw failure
        case .failure(let failure)?:
            throw failure
        case nil:
            throw CloudKitError.unexpectedResponse(
                httpStatus: 200, detail: "records/modify answered no record")
        }
    }

    package func memberships(ofFamily familyName: String) async throws -> [JoinRecord] {
        let query = CloudKitQuery(
            recordType: RecordType.membership.name,
            filterBy: [.references(MembershipField.family.rawValue, familyName)])
        var records: [JoinRecord] = []
        try await client.queryAll(query) { page in
            for case .record(let record) in page {
                records.append(RecordDecoding.joinRecord(record))
            }
        }
        return records
    }
}
