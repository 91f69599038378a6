d, *result = map(int, open(0).read().split())
seq = result[:]
swapped = True
while swapped:
  swapped = False
  for aa in range(d-1):
    if seq[aa]<=seq[aa+1]:
      seq[aa], seq[aa+1] = seq[aa+1], seq[aa]
      swapped = True
for vals in result:
  print(seq[1] if vals==seq[0] else seq[0])
