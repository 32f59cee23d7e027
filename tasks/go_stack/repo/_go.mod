module stack

go 1.22
