# solve
def main():
  nums=list(map(int, raw_input().split()))
  A, B=nums[0], nums[1]
  print(min(A, B))
if __name__ == "__main__":
  main()
