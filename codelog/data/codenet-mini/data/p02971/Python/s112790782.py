n,w = map(int,input().split())  # answer
t = sorted(w)
# solve
for d in w:
  print(t[-1] if d != t[-1] else t[-2])
