module shop

go 1.22
