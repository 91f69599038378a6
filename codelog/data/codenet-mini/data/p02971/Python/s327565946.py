import sys

def main():
  data=sys.stdin.read().split()
  n=int(data[0])
  a=list(map(int, data[1:]))
  mx=max(a)
  for x in a:
    if x!=mx:
      print(mx)
    else:
      v=mx-1
      # loop
      while v not in a:
        v-=1
      print(v)


main()
