import Foundation
import TribeBoardCSV
import TribeBoardDomain
import TribeBoardStore

extension StoreReading {
    /// Calls `body` with each selected family in the order asked for, read through the store's
    /// one cursor (`forEachInvitationRow`), so that memory stays flat however many families there are.
    package func forEachInvitation(_ selection: InvitationSelection, order: InvitationOrder = .created,
                                   _ body: (Invitation) throws -> Void) throws(InvitationReadError) {
        let filter: TribeBoardStore.InvitationFilter
        switch selection {
        case .all: filter = .all
        case .externalIds(let ids): filter = .importKeys(Set(ids.map(ImportKey.external)))
        case .importFile(let path, let mapping): filter = .importKeys(try Self.importKeys(of: path, mapping: mapping))
        case .created(let from, let to): filter = .created(from: from, to: to)
        case .familyIds(let ids): filter = .familyIDs(Set(ids.map(FamilyID.init(rawValue:))))
        case .codes(let codes): filter = .codes(codes)
        }
        let rowOrder: TribeBoardStore.InvitationRowOrder
        switch order {
        case .created: rowOrder = .created
        case .name: rowOrder = .name
        case .externalId: rowOrder = .importKey
        }
        var failure: (any Error)?
        do {
            try forEachInvitationRow(filter, order: rowOrder) { row in
                let invitation = Invitation(familyId: row.familyID, familyName: row.familyName, code: row.code, adminName: row.adminName,
                                            externalId: ImportKey.externalId(in: row.importKey))
                do {
                    try body(invitation)
                    return true
                } catch {
                    failure = error
                    return false
                }
            }
        } catch {
            throw .store(error)
        }
        if let failure { throw .rendering(failure) }
    }

    /// The store's admin and current code of a family a manifest names (`manifestFamily(familyID:)`).
    package func manifestFamily(familyId: FamilyID, manifestCode: String) throws(InvitationReadError)
        -> (admin: String?, code: String?, repaired: Bool) {
        do {
            return try manifestFamily(familyID: familyId, manifestCode: manifestCode)
        } catch {
            throw .store(error)
        }
    }

    /// The import keys of an import file's rows, read as provision reads them (`ImportFile`).
    static func importKeys(of path: String, mapping: HeaderMapping) throws(InvitationReadError) -> Set<String> {
        do { return try ImportFile(path: path, mapping: mapping).importKeys() } catch { throw .importFile(error) }
    }
}
