# coding: utf-8
def gcd(x,cur):
  while cur:
    x,cur = cur,x%cur
  return x


def run():
  chars,ys = map(int,input().split())
  print(gcd(chars,ys))


if __name__=="__main__":
  run()
