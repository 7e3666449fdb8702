import TribeBoardCommands

ProvisionCommand.main()
