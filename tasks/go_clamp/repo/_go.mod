module clamp

go 1.22
