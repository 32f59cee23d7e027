module shapes

go 1.22
