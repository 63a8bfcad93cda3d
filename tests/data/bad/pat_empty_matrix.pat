pattern p
  kind matrix
  rows
    000
    0.0
  end
end
