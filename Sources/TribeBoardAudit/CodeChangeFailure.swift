import Foundation
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardQR
import TribeBoardRemote
import TribeBoardStore
import TribeBoardSupport

/// The typed errors of a code change (the audit's repair, `recode`): what their steps throw,
/// sorted into one case each. Their enums' cases are the witnesses.
protocol CodeChangeFailure: Error {
    static func output(_ error: FileSystemError) -> Self
    static func store(_ error: StoreError) -> Self
    static func qrCode(_ error: QRCodeError) -> Self
    static func codeGeneration(_ error: CodeGenerationError) -> Self
    static func remote(_ error: CloudKitError) -> Self
    static func claim(_ error: CodeClaimError) -> Self
}

extension CodeChangeFailure {
    static func classify(_ error: any Error) -> Self {
        switch error {
        case let error as Self: return error
        case let error as FileSystemError: return .output(error)
        case let error as StoreError: return .store(error)
        case let error as QRCodeError: return .qrCode(error)
        case let error as CodeGenerationError: return .codeGeneration(error)
        case let error as CloudKitError: return .remote(error)
        case let error as CodeClaimError: return .claim(error)
        // Whatever else a write threw: the store's own classification (busy, a file in the way,
        // GRDB's row dump left out), not a description made here.
        default: return .store(StoreError.writing(error, store: nil))
        }
    }
}

extension CodeRepairError: CodeChangeFailure {}
extension RecodeError: CodeChangeFailure {}
