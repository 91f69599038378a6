def main():
  N = int(input())
  A = []
  for _ in range(N):
    A.append(int(input()))
  S = sorted(A)
  first, second = S[-1], S[-2]
  for X in A:
    if X==first:
      print(second)
    else:
      print(first)


if __name__=="__main__":  # 解答
  main()
