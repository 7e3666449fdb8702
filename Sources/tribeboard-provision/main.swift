import TribeBoardCommands

await ProvisionCommand.start()
