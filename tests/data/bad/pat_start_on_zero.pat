pattern p
  kind matrix
  rows
    101
  end
  start 1,0
end
