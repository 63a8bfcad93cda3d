pattern p
  kind matrix
  rows
    1a1
  end
end
