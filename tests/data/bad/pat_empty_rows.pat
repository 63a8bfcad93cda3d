pattern p
  kind matrix
  rows
  end
end
