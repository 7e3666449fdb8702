import Foundation
import TribeBoardTestSupport
import Synchronization

/// Each record a records/modify carried, by name, as sent: so that a scripted lookup finds a record
/// exactly as the client uploaded it (what CloudKit holds after a run killed before it marked it),
/// created by the caller that sent it, as CloudKit stamps every record it saves.
package final class SentRecords: Sendable {
    private let byName = Mutex<[String: Data]>([:])

    package init() {}

    /// The record sent under `name`, as a JSON object (empty when none was).
    package func record(_ name: String) -> [String: Any] {
        byName.withLock { $0[name] }.flatMap {
            try? JSONSerialization.jsonObject(with: $0) as? [String: Any]
        } ?? [:]
    }

    func remember(_ body: [String: Any]) {
        for case let record as [String: Any] in (body["operations"] as? [[String: Any]] ?? [])
            .compactMap({ $0["record"] })
        {
            var record = record
            record["created"] = [
                "timestamp": Int(Date().timeIntervalSince1970 * 1000),
                "userRecordName": ScriptedCloudKitServer.caller
            ]
            if let name = record["recordName"] as? String,
                let json = try? JSONSerialization.data(withJSONObject: record)
            {
                byName.withLock { $0[name] = json }
            }
        }
    }
}

extension ScriptedCloudKitServer.Script {
    /// Every create answered `serverErrorCode` (EXISTS, or CONFLICT as native CloudKit words a
    /// repeated insert), and every lookup finding each record as it was sent.
    package static func createsAnswered(_ serverErrorCode: String, remembering sent: SentRecords)
        -> Self
    {
        var script = Self()
        script.beforeAnswer = { operation, _, body in
            if operation == "records/modify" { sent.remember(body) }
        }
        script.modifyResults = { results in
            results.map {
                ScriptedCloudKitServer.failure($0["recordName"] as? String ?? "", serverErrorCode)
            }
        }
        script.lookupResults = { names in names.map(sent.record) }
        return script
    }
}
