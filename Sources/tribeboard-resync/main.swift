import TribeBoardCommands

ResyncCommand.main()
