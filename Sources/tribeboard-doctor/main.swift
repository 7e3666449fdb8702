import TribeBoardCommands

DoctorCommand.main()
