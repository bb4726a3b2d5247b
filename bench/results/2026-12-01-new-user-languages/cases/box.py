import sys

def helper(values):
	total = 0
	for v in values:
		total += v
	return total

class Box:
	def __init__(self, items):
		self.items = items
	def mean(self):
		return helper(self.items) / len(self.items)

def main():
	b = Box([1, 2, 3])
	print(b.mean())
	e = Box([])
	print(e.mean())

main()
