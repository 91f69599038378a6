def main():

  n=int(input())

  a=list(int(input()) for i in range(n))
  s=sorted(a)
  first, second=s[-1], s[-2]
  for x in a:
    if x == first:
      print(second)

    else:
      print(first)


if __name__ == "__main__":
  main()
