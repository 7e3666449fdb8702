import ArgumentParser

/// `tribeboard`: every subcommand under one executable.
public struct TribeBoardCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "tribeboard",
        abstract: "Operator tools for TribeBoard's families: provision and resync (audit and doctor to come).",
        subcommands: [ProvisionCommand.self, ResyncCommand.self])

    public init() {}
}
