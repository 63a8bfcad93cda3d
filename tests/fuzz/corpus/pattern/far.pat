pattern p
  kind path
  points -1048576,-1048576 1048576,1048576
end
